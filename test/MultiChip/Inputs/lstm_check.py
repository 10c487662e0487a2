"""Checks bench/gen_lstm_seq2seq.py's training step with numpy.

  lstm_check.py make DIR  V E H L S T B      writes DIR/argK.npy: parameters
                                             and token ids (seeded)
  lstm_check.py verify DIR OUT V E H L S T B LR
      OUT/outK.npy are the step's results (loss, updated parameters). The
      loss must match a float64 numpy forward pass of the model written
      independently of the generator (relative error <= 1e-5), and each
      parameter's update p - p' must match LR times the loss's gradient by
      central finite differences of that forward pass (float64, eps 1e-5),
      within 1e-4 of the update's largest magnitude plus two float32 ulps
      of the parameter's largest magnitude (p' is stored in float32, so
      p - p' cannot be closer than that). Exit 1 on any failure.

The forward pass takes every parameter with a leading axis of P variants,
so the 2 x (parameter count) perturbed evaluations run as a few batched
computations.
"""

import os
import sys

import numpy as np


def shapes(V, E, H, L):
    out = [("encoder.embedding", (V, E)), ("decoder.embedding", (V, E))]
    for side in ("encoder", "decoder"):
        for l in range(L):
            inp = E if l == 0 else H
            out += [(f"{side}.lstm_{l}.input_kernel", (inp, 4 * H)),
                    (f"{side}.lstm_{l}.recurrent_kernel", (H, 4 * H)),
                    (f"{side}.lstm_{l}.bias", (4 * H,))]
    return out + [("output.kernel", (H, V)), ("output.bias", (V,))]


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def layer(X, Wx, Wh, b, h, c):
    """X [P, steps, B, in]; weights [P, ...]; h, c [P, B, H]."""
    H = Wh.shape[1]
    xw = X @ Wx[:, None] + b[:, None, None, :]
    outs = []
    for t in range(X.shape[1]):
        z = xw[:, t] + h @ Wh
        i, f = sigmoid(z[..., :H]), sigmoid(z[..., H:2 * H])
        g, o = np.tanh(z[..., 2 * H:3 * H]), sigmoid(z[..., 3 * H:])
        c = f * c + i * g
        h = o * np.tanh(c)
        outs.append(h)
    return np.stack(outs, 1), h, c


def loss(params, src, tgt_in, tgt_out, L):
    """Mean cross-entropy of every variant: [P]."""
    E_src, E_tgt = params[0], params[1]
    P, B, H = E_src.shape[0], src.shape[0], params[3].shape[1]
    enc = [params[2 + 3 * l:5 + 3 * l] for l in range(L)]
    dec = [params[2 + 3 * L + 3 * l:5 + 3 * L + 3 * l] for l in range(L)]
    W_out, b_out = params[-2], params[-1]
    X = E_src[:, src.T]  # [P, S, B, E]
    zeros = np.zeros((P, B, H))
    finals = []
    for Wx, Wh, b in enc:
        X, h, c = layer(X, Wx, Wh, b, zeros, zeros)
        finals.append((h, c))
    Y = E_tgt[:, tgt_in.T]
    for (Wx, Wh, b), (h, c) in zip(dec, finals):
        Y, _, _ = layer(Y, Wx, Wh, b, h, c)
    logits = Y @ W_out[:, None] + b_out[:, None, None, :]  # [P, T, B, V]
    m = logits.max(-1, keepdims=True)
    logp = logits - m - np.log(np.exp(logits - m).sum(-1, keepdims=True))
    picked = np.take_along_axis(logp, tgt_out.T[None, :, :, None], -1)
    return -picked[..., 0].mean(axis=(1, 2))


def fd_gradients(params, src, tgt_in, tgt_out, L, eps=1e-5, chunk=512):
    grads = []
    for k, p in enumerate(params):
        g = np.zeros(p.size)
        for lo in range(0, p.size, chunk):
            idx = np.arange(lo, min(lo + chunk, p.size))
            n = len(idx)
            batch = [np.repeat(q[None], 2 * n, 0) for q in params]
            flat = batch[k].reshape(2 * n, -1)
            flat[np.arange(n), idx] += eps
            flat[n + np.arange(n), idx] -= eps
            f = loss(batch, src, tgt_in, tgt_out, L)
            g[idx] = (f[:n] - f[n:]) / (2 * eps)
        grads.append(g.reshape(p.shape))
    return grads


def make(folder, V, E, H, L, S, T, B):
    rng = np.random.default_rng(20)
    os.makedirs(folder, exist_ok=True)
    k = 0
    for name, shape in shapes(V, E, H, L):
        scale = 0.5 if "embedding" in name else 0.3
        np.save(os.path.join(folder, f"arg{k}.npy"),
                rng.uniform(-scale, scale, shape).astype(np.float32))
        k += 1
    src = rng.integers(0, V, (B, S), dtype=np.int32)
    tgt_in = rng.integers(0, V, (B, T), dtype=np.int32)
    # Repeated tokens: their embedding gradients must add up in the scatter.
    src[-1, -1] = src[0, 0]
    tgt_in[-1, 1] = tgt_in[0, 0] = tgt_in[1, 0]
    tgt_out = np.concatenate([tgt_in[:, 1:], rng.integers(0, V, (B, 1))],
                             1).astype(np.int32)
    for a in (src, tgt_in, tgt_out):
        np.save(os.path.join(folder, f"arg{k}.npy"), a)
        k += 1


def verify(folder, out, V, E, H, L, S, T, B, lr):
    names = [n for n, _ in shapes(V, E, H, L)]
    params = [np.load(os.path.join(folder, f"arg{k}.npy")).astype(np.float64)
              for k in range(len(names))]
    src, tgt_in, tgt_out = (np.load(os.path.join(folder, f"arg{k}.npy"))
                            for k in range(len(names), len(names) + 3))
    got = [np.load(os.path.join(out, f"out{k}.npy")).astype(np.float64)
           for k in range(len(names) + 1)]
    ok = True
    ref = loss([p[None] for p in params], src, tgt_in, tgt_out, L)[0]
    rel = abs(got[0] - ref) / abs(ref)
    verdict = "PASS" if rel <= 1e-5 else "FAIL"
    ok &= verdict == "PASS"
    print(f"loss: {float(got[0]):.7f}, numpy {ref:.7f}, relative error "
          f"{rel:.1e} (tolerance 1e-5): {verdict}")
    grads = fd_gradients(params, src, tgt_in, tgt_out, L)
    for name, p, new, g in zip(names, params, got[1:], grads):
        step, want = p - new, lr * g
        scale = np.abs(want).max()
        tol = 1e-4 * scale + 2 * np.abs(p).max() * 2.0 ** -23
        err = np.abs(step - want).max()
        verdict = "PASS" if err <= tol else "FAIL"
        ok &= verdict == "PASS"
        print(f"{name}: update max {scale:.2e}, max error {err:.1e} "
              f"(tolerance {tol:.1e}): {verdict}")
    print("all match" if ok else "MISMATCH")
    return 0 if ok else 1


def main():
    cmd, rest = sys.argv[1], sys.argv[2:]
    if cmd == "make":
        make(rest[0], *map(int, rest[1:8]))
        return 0
    if cmd == "verify":
        return verify(rest[0], rest[1], *map(int, rest[2:9]), float(rest[9]))
    if cmd == "corrupt":  # OUT K: nudge one element of output K by 1e-3
        path = os.path.join(rest[0], f"out{rest[1]}.npy")
        a = np.load(path)
        a.flat[0] += np.float32(1e-3)
        np.save(path, a)
        return 0
    print(f"unknown command {cmd}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
