#!/usr/bin/env python3
"""Writes a synthetic HLO module of about N instructions for the benchmarks.

The graph is a chain of realistic blocks, repeated until the instruction
count is reached:

  transformer  pre-norm self-attention + GELU MLP on a [seq, width]
               activation (layer-norm reductions, QKV / score / output /
               MLP dots, softmax with max-subtraction), ~45 instructions;
  conv         3x3 SAME convolution + bias + ReLU + residual add on a
               [batch, size, size, width] NHWC activation, ~9 instructions;
  mixed        alternates the two, the conv output flattened into the
               transformer's activation.

Weights are entry parameters (as framework exports have them), each block's
own, with framework op names (`layer_N/attention/...`), so compatibility,
tensor-map and memory reports group them as they would a real model.

  bench/gen_hlo.py --ops 10000 --mix transformer --width 256 -o t10k.hlo
"""

import argparse
import sys


class Module:
    def __init__(self):
        self.params = []  # (name, shape text)
        self.body = []
        self.counter = 0

    def fresh(self, base):
        self.counter += 1
        return f"{base}.{self.counter}"

    def param(self, base, shape, op_name):
        name = self.fresh(base)
        index = len(self.params)
        self.params.append((name, shape))
        self.body.append(
            f'  %{name} = {shape} parameter({index}), '
            f'metadata={{op_type="_Arg" op_name="{op_name}"}}')
        return name

    def op(self, base, shape, text, op_name, op_type):
        name = self.fresh(base)
        self.body.append(
            f'  %{name} = {shape} {text}, '
            f'metadata={{op_type="{op_type}" op_name="{op_name}"}}')
        return name

    def instructions(self):
        return len(self.body)


def f32(*dims):
    return "f32[" + ",".join(str(d) for d in dims) + "]"


def scalar_const(m, value, scope):
    return m.op("constant", "f32[]", f"constant({value})", scope, "Const")


def broadcast(m, x, shape, dims, scope):
    d = ",".join(str(v) for v in dims)
    return m.op("broadcast", shape, f"broadcast(%{x}), dimensions={{{d}}}",
                scope, "Broadcast")


def layer_norm(m, x, s, d, scope):
    shape = f32(s, d)
    zero = scalar_const(m, 0, scope)
    total = m.op("reduce", f32(s),
                 f"reduce(%{x}, %{zero}), dimensions={{1}}, to_apply=%add_f32",
                 scope + "/mean", "Mean")
    inv_d = scalar_const(m, 1.0 / d, scope)
    mean = m.op("multiply", f32(s),
                f"multiply(%{total}, %{broadcast(m, inv_d, f32(s), [], scope)})",
                scope + "/mean", "Mean")
    centred = m.op("subtract", shape,
                   f"subtract(%{x}, %{broadcast(m, mean, shape, [0], scope)})",
                   scope + "/sub", "Sub")
    square = m.op("multiply", shape, f"multiply(%{centred}, %{centred})",
                  scope + "/square", "Square")
    var = m.op("reduce", f32(s),
               f"reduce(%{square}, %{zero}), dimensions={{1}}, to_apply=%add_f32",
               scope + "/variance", "Mean")
    rstd = m.op("rsqrt", f32(s), f"rsqrt(%{var})", scope + "/rsqrt", "Rsqrt")
    return m.op("multiply", shape,
                f"multiply(%{centred}, %{broadcast(m, rstd, shape, [0], scope)})",
                scope + "/mul", "Mul")


def dot(m, a, b, shape, scope, op_type="MatMul"):
    return m.op("dot", shape,
                f"dot(%{a}, %{b}), lhs_contracting_dims={{1}}, "
                f"rhs_contracting_dims={{0}}", scope, op_type)


def transformer_block(m, x, s, d, layer):
    scope = f"layer_{layer}"
    shape = f32(s, d)
    wq = m.param("wq", f32(d, d), f"{scope}/attention/query/kernel")
    wk = m.param("wk", f32(d, d), f"{scope}/attention/key/kernel")
    wv = m.param("wv", f32(d, d), f"{scope}/attention/value/kernel")
    wo = m.param("wo", f32(d, d), f"{scope}/attention/output/kernel")
    w1 = m.param("w1", f32(d, 4 * d), f"{scope}/mlp/dense_1/kernel")
    w2 = m.param("w2", f32(4 * d, d), f"{scope}/mlp/dense_2/kernel")
    h = layer_norm(m, x, s, d, f"{scope}/attention/layer_norm")
    q = dot(m, h, wq, shape, f"{scope}/attention/query/MatMul")
    k = dot(m, h, wk, shape, f"{scope}/attention/key/MatMul")
    v = dot(m, h, wv, shape, f"{scope}/attention/value/MatMul")
    kt = m.op("transpose", f32(d, s), f"transpose(%{k}), dimensions={{1,0}}",
              f"{scope}/attention/transpose", "Transpose")
    scores = dot(m, q, kt, f32(s, s), f"{scope}/attention/scores/MatMul",
                 "BatchMatMulV2")
    lowest = scalar_const(m, -3.4e38, f"{scope}/attention/softmax")
    mx = m.op("reduce", f32(s),
              f"reduce(%{scores}, %{lowest}), dimensions={{1}}, "
              f"to_apply=%max_f32", f"{scope}/attention/softmax/Max", "Max")
    shifted = m.op(
        "subtract", f32(s, s),
        f"subtract(%{scores}, %{broadcast(m, mx, f32(s, s), [0], scope)})",
        f"{scope}/attention/softmax/sub", "Sub")
    e = m.op("exponential", f32(s, s), f"exponential(%{shifted})",
             f"{scope}/attention/softmax/Exp", "Exp")
    zero = scalar_const(m, 0, f"{scope}/attention/softmax")
    total = m.op("reduce", f32(s),
                 f"reduce(%{e}, %{zero}), dimensions={{1}}, to_apply=%add_f32",
                 f"{scope}/attention/softmax/Sum", "Sum")
    p = m.op("divide", f32(s, s),
             f"divide(%{e}, %{broadcast(m, total, f32(s, s), [0], scope)})",
             f"{scope}/attention/softmax/truediv", "RealDiv")
    att = dot(m, p, v, shape, f"{scope}/attention/context/MatMul",
              "BatchMatMulV2")
    out = dot(m, att, wo, shape, f"{scope}/attention/output/MatMul")
    r1 = m.op("add", shape, f"add(%{x}, %{out})", f"{scope}/attention/add",
              "AddV2")
    h2 = layer_norm(m, r1, s, d, f"{scope}/mlp/layer_norm")
    up = dot(m, h2, w1, f32(s, 4 * d), f"{scope}/mlp/dense_1/MatMul")
    # GELU, tanh approximation.
    half = broadcast(m, scalar_const(m, 0.5, scope), f32(s, 4 * d), [], scope)
    t = m.op("tanh", f32(s, 4 * d), f"tanh(%{up})", f"{scope}/mlp/gelu/Tanh",
             "Tanh")
    one = broadcast(m, scalar_const(m, 1, scope), f32(s, 4 * d), [], scope)
    t1 = m.op("add", f32(s, 4 * d), f"add(%{t}, %{one})",
              f"{scope}/mlp/gelu/add", "AddV2")
    g = m.op("multiply", f32(s, 4 * d), f"multiply(%{up}, %{t1})",
             f"{scope}/mlp/gelu/mul", "Mul")
    g2 = m.op("multiply", f32(s, 4 * d), f"multiply(%{g}, %{half})",
              f"{scope}/mlp/gelu/mul_1", "Mul")
    down = dot(m, g2, w2, shape, f"{scope}/mlp/dense_2/MatMul")
    return m.op("add", shape, f"add(%{r1}, %{down})", f"{scope}/mlp/add",
                "AddV2")


def conv_block(m, x, b, n, c, layer):
    scope = f"block_{layer}"
    shape = f32(b, n, n, c)
    w = m.param("kernel", f32(3, 3, c, c), f"{scope}/conv/kernel")
    bias = m.param("bias", f32(c), f"{scope}/conv/bias")
    conv = m.op("convolution", shape,
                f"convolution(%{x}, %{w}), window={{size=3x3 pad=1_1x1_1}}, "
                f"dim_labels=b01f_01io->b01f", f"{scope}/conv/Conv2D", "Conv2D")
    biased = m.op("add", shape,
                  f"add(%{conv}, %{broadcast(m, bias, shape, [3], scope)})",
                  f"{scope}/conv/BiasAdd", "BiasAdd")
    zero = broadcast(m, scalar_const(m, 0, scope), shape, [], scope)
    relu = m.op("maximum", shape, f"maximum(%{biased}, %{zero})",
                f"{scope}/relu/Relu", "Relu")
    return m.op("add", shape, f"add(%{x}, %{relu})", f"{scope}/add", "AddV2")


def generate(ops, mix, width, seq, image):
    m = Module()
    layer = 0
    if mix == "conv":
        x = m.param("images", f32(1, image, image, width), "images")
    else:
        x = m.param("tokens", f32(seq, width), "embeddings")
    while m.instructions() < ops:
        if mix == "transformer":
            x = transformer_block(m, x, seq, width, layer)
        elif mix == "conv":
            x = conv_block(m, x, 1, image, width, layer)
        else:
            # A conv block on the activation viewed as an image, then a
            # transformer block on it flattened back (seq = image^2).
            img = m.op("reshape", f32(1, image, image, width),
                       f"reshape(%{x})", f"stage_{layer}/to_image", "Reshape")
            img = conv_block(m, img, 1, image, width, layer)
            x = m.op("reshape", f32(seq, width), f"reshape(%{img})",
                     f"stage_{layer}/to_tokens", "Reshape")
            x = transformer_block(m, x, seq, width, layer)
        layer += 1
    result_shape = (f32(1, image, image, width) if mix == "conv"
                    else f32(seq, width))
    out = []
    out.append(f"HloModule synthetic_{mix}_{ops}\n")
    out.append("%add_f32 (a: f32[], b: f32[]) -> f32[] {\n"
               "  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n"
               "  ROOT %sum = f32[] add(%a, %b)\n}\n")
    out.append("%max_f32 (a.1: f32[], b.1: f32[]) -> f32[] {\n"
               "  %a.1 = f32[] parameter(0)\n  %b.1 = f32[] parameter(1)\n"
               "  ROOT %max = f32[] maximum(%a.1, %b.1)\n}\n")
    sig = ", ".join(f"{n}: {s}" for n, s in m.params)
    out.append(f"ENTRY %main ({sig}) -> {result_shape} {{\n")
    body = m.body[:]
    last = body.pop()
    body.append("  ROOT " + last.lstrip())
    out.append("\n".join(body) + "\n}\n")
    return "".join(out), m.instructions()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", type=int, required=True,
                        help="instructions to reach (the last block may "
                        "overshoot by one block)")
    parser.add_argument("--mix", choices=["transformer", "conv", "mixed"],
                        default="mixed")
    parser.add_argument("--width", type=int, default=128,
                        help="model width / channels")
    parser.add_argument("--seq", type=int, default=64,
                        help="sequence length (mixed: must be image^2)")
    parser.add_argument("--image", type=int, default=8,
                        help="image side for conv blocks")
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args()
    if args.ops < 1:
        parser.error("--ops must be positive")
    if args.mix == "mixed" and args.seq != args.image * args.image:
        parser.error("--mix mixed needs --seq == --image^2")
    text, count = generate(args.ops, args.mix, args.width, args.seq,
                           args.image)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)
    print(f"{count} instructions", file=sys.stderr)


if __name__ == "__main__":
    main()
