// A model placed on two chips by its sharding annotations (as the HLO
// importer keeps `sharding={maximal device=N}`): the negation on chip 0,
// the sum on chip 1, so the negated vector crosses the chips' link.
func.func @main(%x: tensor<64xf32> loc("x")) -> tensor<f32> {
  %n = tgraph.negate %x {tgraph.sharding = "{maximal device=0}"} : tensor<64xf32> loc("negate")
  %zero = tgraph.constant dense<0.0> : tensor<f32> loc("zero")
  %sum = tgraph.reduce(%n) init(%zero) dims = [0] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = tgraph.add %a, %b : tensor<f32>
    tgraph.return %t : tensor<f32>
  } {tgraph.sharding = "{maximal device=1}"} : (tensor<64xf32>, tensor<f32>) -> tensor<f32> loc("total")
  return %sum : tensor<f32>
}
