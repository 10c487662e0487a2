// Input of errors.mlir: a call to a missing function on line 3, column 8.
func.func @call(%x: tensor<4xf32>) {
  %0 = tgraph.call @nowhere(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}
