// Input of errors.mlir: a misspelt comparison direction on line 4, column 23.
// (lit does not run files in Inputs/.)
func.func @f(%a: tensor<4xf32>) {
  %0 = tgraph.compare BIGGER, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}
