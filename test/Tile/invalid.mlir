// RUN: tessera-opt %s -split-input-file -verify-diagnostics

tile.program @gap target "t" tiles 4 {
  // expected-error @+1 {{mapping of 'x' is invalid: elements [8, 16) are not mapped to any tile}}
  %x = tile.var "x" parameter mapping<[0, 1] x 4 from 0> : !tile.buffer<16xf32>
}

// -----

tile.program @twice target "t" tiles 4 {
  // expected-error @+1 {{mapping of 'x' is invalid: element 4 is mapped twice (run 1)}}
  %x = tile.var "x" parameter mapping<[0, 1] x 4 from 0, [2, 3] x 4 from 4> : !tile.buffer<12xf32>
}

// -----

tile.program @past target "t" tiles 4 {
  // expected-error @+1 {{mapping of 'x' is invalid: mapping run 0 reaches tile 4 but the program has 4 tiles}}
  %x = tile.var "x" parameter mapping<[0, 4] x 2 from 0> : !tile.buffer<10xf32>
}

// -----

tile.program @toomany target "t" tiles 4 {
  // expected-error @+1 {{mapping of 'x' is invalid: mapping covers 12 elements but the buffer has 10}}
  %x = tile.var "x" parameter mapping<[0, 2] x 4 from 0> : !tile.buffer<10xf32>
}

// -----

tile.program @emptyrun target "t" tiles 4 {
  // expected-error @+1 {{mapping run 0 [2, 1] x 4 from 0 is empty or negative}}
  %x = tile.var "x" parameter mapping<[2, 1] x 4 from 0> : !tile.buffer<4xf32>
}

// -----

tile.program @remote target "t" tiles 4 {
  %x = tile.var "x" parameter mapping<[0, 1] x 4 from 0> : !tile.buffer<8xf32>
  %y = tile.var "y" output mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  // expected-error @+1 {{vertex on tile 2 would touch operand #0 ('x'), which has no elements on that tile}}
  tile.compute_set "neg" kind "elementwise.negate" tiles [0, 3]
      ins(%x : !tile.buffer<8xf32>) outs(%y : !tile.buffer<8xf32>)
}

// -----

tile.program @range target "t" tiles 4 {
  %x = tile.var "x" parameter mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  // expected-error @+1 {{tile range [2, 5] is empty or outside the program's 4 tiles}}
  tile.compute_set "neg" kind "elementwise.negate" tiles [2, 5]
      outs(%x : !tile.buffer<8xf32>)
}

// -----

tile.program @badread target "t" tiles 4 {
  %x = tile.var "x" parameter mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  %y = tile.var "y" output mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  // Tile 1 holds x[2, 3], not x[0, 1].
  // expected-error @+1 {{copy run 0 reads elements [0, 2) of the source from tile 1, which does not hold them}}
  tile.exchange "bad" %x -> %y copies [1, 0, 1, 2, 0, 0, 0, 0] : !tile.buffer<8xf32>, !tile.buffer<8xf32>
}

// -----

tile.program @badwrite target "t" tiles 4 {
  %x = tile.var "x" parameter mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  %y = tile.var "y" output mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  // The second copy of the run (tile 2 to tile 1) writes y[4, 6), which is
  // on tile 2.
  // expected-error @+1 {{copy run 0 writes elements [4, 6) of the dest on tile 1, which does not hold them}}
  tile.exchange "bad" %x -> %y copies [1, 0, 2, 2, 2, 2, 0, 4] : !tile.buffer<8xf32>, !tile.buffer<8xf32>
}

// -----

tile.program @sixes target "t" tiles 4 {
  %x = tile.var "x" parameter mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  // expected-error @+1 {{copies come in runs of eight}}
  tile.exchange "bad" %x -> %x copies [0, 1, 1] : !tile.buffer<8xf32>, !tile.buffer<8xf32>
}

// -----

tile.program @stridedcount target "t" tiles 4 {
  %x = tile.var "x" parameter mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  // expected-error @+1 {{strided comes in fives (chunk, src chunk stride, dst chunk stride, src tile step, dst tile step), one per copy run: expected 5 integers, got 3}}
  tile.exchange "bad" %x -> %x copies [0, 0, 1, 2, 0, 0, 0, 0] strided [1, 1, 1] : !tile.buffer<8xf32>, !tile.buffer<8xf32>
}

// -----

// A run's fields are checked once per distinct copy list, by the
// program's region verifier; the error is still the exchange's, naming
// the first exchange in program order with that list.
tile.program @emptyrun target "t" tiles 4 {
  %x = tile.var "x" parameter mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  tile.exchange "fine" %x -> %x copies [0, 1, 1, 2, 0, 0, 2, 0] : !tile.buffer<8xf32>, !tile.buffer<8xf32>
  // expected-error @+1 {{copy run 1 is empty or negative}}
  tile.exchange "bad" %x -> %x copies [0, 1, 1, 2, 0, 0, 2, 0, 1, 2, 0, 2, 2, 0, 4, 0] : !tile.buffer<8xf32>, !tile.buffer<8xf32>
  tile.exchange "again" %x -> %x copies [0, 1, 1, 2, 0, 0, 2, 0, 1, 2, 0, 2, 2, 0, 4, 0] : !tile.buffer<8xf32>, !tile.buffer<8xf32>
}

// -----

tile.program @stridedchunk target "t" tiles 4 {
  %x = tile.var "x" parameter mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  // expected-error @+1 {{copy run 0 has chunks of 3 that do not divide its 2 elements, or a negative chunk stride}}
  tile.exchange "bad" %x -> %x copies [0, 0, 1, 2, 0, 0, 0, 0] strided [3, 0, 0, 1, 1] : !tile.buffer<8xf32>, !tile.buffer<8xf32>
}

// -----

tile.program @stridedstep target "t" tiles 4 {
  %x = tile.var "x" parameter mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  // expected-error @+1 {{copy run 0 has tile steps 2, 2; each must be 0 or 1}}
  tile.exchange "bad" %x -> %x copies [0, 0, 2, 2, 0, 4, 0, 4] strided [1, 1, 1, 2, 2] : !tile.buffer<8xf32>, !tile.buffer<8xf32>
}

// -----

tile.program @stridedread target "t" tiles 4 {
  %x = tile.var "x" parameter mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  %y = tile.var "y" output mapping<[0, 0] x 8 from 0> : !tile.buffer<8xf32>
  // Tile 0 holds x[0, 1]; its second chunk, 2 elements on, is on tile 1.
  // expected-error @+1 {{copy run 0 reads elements [2, 3) of the source from tile 0, which does not hold them}}
  tile.exchange "bad" %x -> %y copies [0, 0, 1, 2, 0, 0, 0, 0] strided [1, 2, 1, 1, 1] : !tile.buffer<8xf32>, !tile.buffer<8xf32>
}

// -----

tile.program @fanin target "t" tiles 4 {
  %x = tile.var "x" parameter mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  %y = tile.var "y" output mapping<[0, 1] x 4 from 0> : !tile.buffer<8xf32>
  // Two copies into tile 0 (dst tile step 0); the second lands on y[4, 6),
  // which tile 1 holds.
  // expected-error @+1 {{copy run 0 writes elements [4, 6) of the dest on tile 0, which does not hold them}}
  tile.exchange "bad" %x -> %y copies [0, 0, 2, 2, 0, 2, 0, 4] strided [2, 0, 0, 1, 0] : !tile.buffer<8xf32>, !tile.buffer<8xf32>
}

// -----

tile.program @fanin_gap target "t" tiles 4 {
  %x = tile.var "x" parameter mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  %y = tile.var "y" output mapping<[0, 1] x 2 from 0, [0, 1] x 2 from 4> : !tile.buffer<8xf32>
  // Valid: tile 0 holds y[0, 2) and y[4, 6), where the two copies land,
  // but not the gap between them (the verifier must not ask it to).
  tile.exchange "ok" %x -> %y copies [0, 0, 2, 2, 0, 2, 0, 4] strided [2, 0, 0, 1, 0] : !tile.buffer<8xf32>, !tile.buffer<8xf32>
}

// -----

tile.program @viewrange target "t" tiles 4 {
  %x = tile.var "x" parameter mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  %y = tile.var "y" output mapping<[0, 3] x 4 from 0> : !tile.buffer<4x4xf32>
  // The last element of a 4x4 view with strides [2, 1] is 1 + 3·2 + 3 = 10.
  // expected-error @+1 {{view reads source elements [1, 10], outside the source's 8 elements}}
  tile.exchange "bad" %x -> %y view [2, 1] offset 1 : !tile.buffer<8xf32>, !tile.buffer<4x4xf32>
}

// -----

tile.program @viewrank target "t" tiles 4 {
  %x = tile.var "x" parameter mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  // expected-error @+1 {{view has 2 strides for a rank-1 dest}}
  tile.exchange "bad" %x -> %x view [1, 1] offset 0 : !tile.buffer<8xf32>, !tile.buffer<8xf32>
}

// -----

tile.program @viewandcopies target "t" tiles 4 {
  %x = tile.var "x" parameter mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  // expected-error @+1 {{has both copies and a view}}
  tile.exchange "bad" %x -> %x copies [0, 0, 1, 2, 0, 0, 0, 0] view [1] offset 0 : !tile.buffer<8xf32>, !tile.buffer<8xf32>
}

// -----

tile.program @nocopies target "t" tiles 4 {
  %x = tile.var "x" parameter mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  // expected-error @+1 {{needs copies or a view}}
  tile.exchange "bad" %x -> %x : !tile.buffer<8xf32>, !tile.buffer<8xf32>
}

// -----

tile.program @category target "t" tiles 4 {
  // expected-error @+1 {{unknown buffer category 'scratch'}}
  %x = tile.var "x" scratch mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
}

// -----

tile.program @wide_cond target "t" tiles 4 {
  %c = tile.var "c" temporary mapping<[0, 1] x 1 from 0> : !tile.buffer<2xi1>
  // expected-error @+1 {{condition must be one i1 element, got '!tile.buffer<2xi1>'}}
  tile.repeat "while.1" cond %c : !tile.buffer<2xi1> trip_count 3 {
    tile.sync
  }
}

// -----

tile.program @float_pred target "t" tiles 4 {
  %p = tile.var "p" temporary mapping<[0, 0] x 1 from 0> : !tile.buffer<f32>
  // expected-error @+1 {{predicate must be one i1 element, got '!tile.buffer<f32>'}}
  tile.if "if.1" %p : !tile.buffer<f32> {
    tile.sync
  } else {
    tile.sync
  }
}

// -----

tile.program @trip target "t" tiles 4 {
  %c = tile.var "c" temporary mapping<[0, 0] x 1 from 0> : !tile.buffer<i1>
  // expected-error @+1 {{trip_count must be -1 (unknown) or at least 0, got -2}}
  tile.repeat "while.1" cond %c : !tile.buffer<i1> trip_count -2 {
    tile.sync
  }
}

// -----

// Steps inside a repeat are verified like any other: a var declared
// outside is named inside, and its mapping still binds the vertices.
tile.program @nested target "t" tiles 4 {
  %c = tile.var "c" temporary mapping<[0, 0] x 1 from 0> : !tile.buffer<i1>
  %x = tile.var "x" temporary mapping<[0, 1] x 2 from 0> : !tile.buffer<4xf32>
  tile.repeat "while.1" cond %c : !tile.buffer<i1> trip_count -1 {
    tile.if "if.1" %c : !tile.buffer<i1> {
      // expected-error @+1 {{vertex on tile 2 would touch operand #0 ('x'), which has no elements on that tile}}
      tile.compute_set "neg" kind "elementwise.negate" tiles [0, 2] ins(%x : !tile.buffer<4xf32>) outs(%x : !tile.buffer<4xf32>)
    } else {
      tile.sync
    }
  }
}

// -----

tile.program @resultof target "t" tiles 4 {
  // expected-error @+1 {{'x' has result_of without result_leaf}}
  %x = tile.var "x" temporary mapping<[0, 3] x 4 from 0> {hlo = "x", result_of = 3 : i64} : !tile.buffer<16xf32>
}

// -----

tile.program @data target "t" tiles 4 {
  // expected-error @+1 {{'x' carries constant data but is not a constant}}
  %x = tile.var "x" temporary mapping<[0, 3] x 1 from 0> {value = dense<1.0> : tensor<4xf32>} : !tile.buffer<4xf32>
}

// -----

tile.program @both target "t" tiles 4 {
  // expected-error @+1 {{'x' has both a value and an elided op_id}}
  %x = tile.var "x" constant mapping<[0, 3] x 1 from 0> {op_id = 2 : i64, value = dense<1.0> : tensor<4xf32>} : !tile.buffer<4xf32>
}

// -----

tile.program @typed target "t" tiles 4 {
  // expected-error @+1 {{attribute 'why' failed to satisfy constraint: string attribute}}
  %x = tile.var "x" temporary mapping<[0, 3] x 1 from 0> {why = 3 : i64} : !tile.buffer<4xf32>
}

// -----

tile.program @alias target "t" tiles 4 {
  %x = tile.var "x" temporary mapping<[0, 3] x 1 from 0> : !tile.buffer<4xf32>
  // expected-error @+1 {{'y' aliases 'x', whose elements are not its own: '!tile.buffer<4xf32>' vs '!tile.buffer<4xi32>'}}
  %y = tile.var "y" temporary mapping<[0, 3] x 1 from 0> aliases %x : !tile.buffer<4xf32> : !tile.buffer<4xi32>
}

// -----

// The same copies from two sources: checked once per pair of layouts, so
// the copies that x holds are still checked against z, which holds
// everything on tile 0.
tile.program @repeatedcopies target "t" tiles 4 {
  %x = tile.var "x" parameter mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  %z = tile.var "z" parameter mapping<[0, 0] x 8 from 0> : !tile.buffer<8xf32>
  %y = tile.var "y" output mapping<[0, 3] x 2 from 0> : !tile.buffer<8xf32>
  tile.exchange "good" %x -> %y copies [1, 1, 1, 2, 2, 0, 2, 0] : !tile.buffer<8xf32>, !tile.buffer<8xf32>
  tile.sync
  // expected-error @+1 {{copy run 0 reads elements [2, 4) of the source from tile 1, which does not hold them}}
  tile.exchange "bad" %z -> %y copies [1, 1, 1, 2, 2, 0, 2, 0] : !tile.buffer<8xf32>, !tile.buffer<8xf32>
}
