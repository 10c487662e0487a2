"""Checks all-to-all's tuple form against XLA's rule, independently of
Tessera's interpreter: with all_to_all_tuple.hlo (replica r's operand i is
its input times i + 1), result j of replica r must be replica j's input
times r + 1.

usage: a2a_check.py INPUTS_DIR OUTPUTS_DIR REPLICAS
"""
import sys

import numpy as np

inputs, outputs, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
x = [np.load(f"{inputs}/replica{r}/arg0.npy") for r in range(n)]
bad = 0
for r in range(n):
    for j in range(n):
        got = np.load(f"{outputs}/replica{r}/out{j}.npy")
        want = x[j] * (r + 1)
        if not np.array_equal(got, want):
            bad += 1
            print(f"replica {r} result {j}: {got} != {want}")
print(f"{n * n - bad} of {n * n} results follow XLA's rule")
sys.exit(1 if bad else 0)
