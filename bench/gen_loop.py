#!/usr/bin/env python3
"""Writes a tgraph module whose run executes many steps: a counting while
loop of TRIPS trips whose body applies OPS elementwise ops to an
f32[ELEMENTS] vector (spread over every tile), for the trace-writing
benchmark (bench/profile.py): each trip is OPS compute sets and their
syncs and exchanges, each with a slice per tile group in the trace.

  python3 bench/gen_loop.py --trips 1000 --ops 8 --elements 23552 -o loop.mlir
"""

import argparse


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trips", type=int, required=True)
    p.add_argument("--ops", type=int, default=8)
    p.add_argument("--elements", type=int, default=23552)
    p.add_argument("-o", "--output", required=True)
    a = p.parse_args()
    v = f"tensor<{a.elements}xf32>"
    state = f"tuple<{v}, tensor<i32>>"
    lines = [
        f"func.func private @cond(%s: {state}) -> tensor<i1> {{",
        f"  %n = tgraph.get_tuple_element %s[1] : ({state}) -> tensor<i32>",
        f"  %limit = tgraph.constant dense<{a.trips}> : tensor<i32>",
        "  %lt = tgraph.compare LT, %n, %limit : (tensor<i32>, tensor<i32>) -> tensor<i1>",
        "  return %lt : tensor<i1>",
        "}",
        f"func.func private @body(%s: {state}) -> {state} {{",
        f"  %x0 = tgraph.get_tuple_element %s[0] : ({state}) -> {v}",
        f"  %n = tgraph.get_tuple_element %s[1] : ({state}) -> tensor<i32>",
    ]
    ops = ["tanh", "negate", "abs", "exponential"]
    for i in range(a.ops):
        lines.append(f"  %x{i + 1} = tgraph.{ops[i % len(ops)]} %x{i} : {v} "
                     f"loc(\"op{i}\")")
    lines += [
        "  %one = tgraph.constant dense<1> : tensor<i32>",
        "  %n2 = tgraph.add %n, %one : tensor<i32>",
        f"  %t = tgraph.tuple %x{a.ops}, %n2 : ({v}, tensor<i32>) -> {state}",
        f"  return %t : {state}",
        "}",
        f"func.func @main(%x: {v}) -> {v} {{",
        "  %n0 = tgraph.constant dense<0> : tensor<i32>",
        f"  %init = tgraph.tuple %x, %n0 : ({v}, tensor<i32>) -> {state}",
        f"  %loop = tgraph.while %init cond @cond body @body : {state} loc(\"loop\")",
        f"  %y = tgraph.get_tuple_element %loop[0] : ({state}) -> {v}",
        f"  return %y : {v}",
        "}",
    ]
    with open(a.output, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
