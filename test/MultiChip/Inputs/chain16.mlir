// Sixteen 32 KiB parameters summed in a chain: 512 KiB live at the start,
// more than one chip of two-chips-small.json holds (4 tiles of 84 KiB),
// so the placement search needs several chips.
func.func @main(%a0: tensor<8192xf32> loc("a0"), %a1: tensor<8192xf32> loc("a1"), %a2: tensor<8192xf32> loc("a2"), %a3: tensor<8192xf32> loc("a3"), %a4: tensor<8192xf32> loc("a4"), %a5: tensor<8192xf32> loc("a5"), %a6: tensor<8192xf32> loc("a6"), %a7: tensor<8192xf32> loc("a7"), %a8: tensor<8192xf32> loc("a8"), %a9: tensor<8192xf32> loc("a9"), %a10: tensor<8192xf32> loc("a10"), %a11: tensor<8192xf32> loc("a11"), %a12: tensor<8192xf32> loc("a12"), %a13: tensor<8192xf32> loc("a13"), %a14: tensor<8192xf32> loc("a14"), %a15: tensor<8192xf32> loc("a15")) -> tensor<8192xf32> {
  %s1 = tgraph.add %a0, %a1 : tensor<8192xf32> loc("add.1")
  %s2 = tgraph.add %s1, %a2 : tensor<8192xf32> loc("add.2")
  %s3 = tgraph.add %s2, %a3 : tensor<8192xf32> loc("add.3")
  %s4 = tgraph.add %s3, %a4 : tensor<8192xf32> loc("add.4")
  %s5 = tgraph.add %s4, %a5 : tensor<8192xf32> loc("add.5")
  %s6 = tgraph.add %s5, %a6 : tensor<8192xf32> loc("add.6")
  %s7 = tgraph.add %s6, %a7 : tensor<8192xf32> loc("add.7")
  %s8 = tgraph.add %s7, %a8 : tensor<8192xf32> loc("add.8")
  %s9 = tgraph.add %s8, %a9 : tensor<8192xf32> loc("add.9")
  %s10 = tgraph.add %s9, %a10 : tensor<8192xf32> loc("add.10")
  %s11 = tgraph.add %s10, %a11 : tensor<8192xf32> loc("add.11")
  %s12 = tgraph.add %s11, %a12 : tensor<8192xf32> loc("add.12")
  %s13 = tgraph.add %s12, %a13 : tensor<8192xf32> loc("add.13")
  %s14 = tgraph.add %s13, %a14 : tensor<8192xf32> loc("add.14")
  %s15 = tgraph.add %s14, %a15 : tensor<8192xf32> loc("add.15")
  return %s15 : tensor<8192xf32>
}
