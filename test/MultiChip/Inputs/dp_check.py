"""The data-parallel training step of dp_step.hlo, checked with numpy.

  make DIR        writes the inputs of 4 replicas: the same weights w, a
                  different batch (x, y) each, as DIR/replicaD/arg*.npy
  verify IN OUT   checks every replica's new weights (OUT/replicaD/out0.npy)
                  against one step on the summed gradient:
                  w - 0.01 * sum_d x_d^T (x_d w - y_d)
"""
import sys

import numpy as np

REPLICAS = 4


def make(root):
    import os
    rng = np.random.default_rng(7)
    w = rng.standard_normal((8, 4)).astype(np.float32)
    for d in range(REPLICAS):
        folder = os.path.join(root, "replica%d" % d)
        os.makedirs(folder, exist_ok=True)
        np.save(os.path.join(folder, "arg0.npy"), w)
        np.save(os.path.join(folder, "arg1.npy"),
                rng.standard_normal((16, 8)).astype(np.float32))
        np.save(os.path.join(folder, "arg2.npy"),
                rng.standard_normal((16, 4)).astype(np.float32))


def verify(inputs, outputs):
    load = lambda root, d, name: np.load("%s/replica%d/%s.npy" % (root, d, name))
    w = load(inputs, 0, "arg0").astype(np.float64)
    grad = sum(load(inputs, d, "arg1").astype(np.float64).T
               @ (load(inputs, d, "arg1").astype(np.float64) @ w
                  - load(inputs, d, "arg2").astype(np.float64))
               for d in range(REPLICAS))
    expected = w - 0.01 * grad
    got = [load(outputs, d, "out0") for d in range(REPLICAS)]
    for d, g in enumerate(got):
        err = np.max(np.abs(g - expected)) / np.max(np.abs(expected))
        print("replica %d: %s (norm err %s)" % (
            d, "matches one step on the summed gradient" if err < 1e-5
            else "DIFFERS", "below 1e-5" if err < 1e-5 else "%.3g" % err))
    same = all(np.array_equal(got[0], g) for g in got[1:])
    print("replicas agree bit for bit: %s" % ("yes" if same else "no"))


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        verify(sys.argv[2], sys.argv[3])
