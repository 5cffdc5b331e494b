"""Two alternative forms of the shipped graphs, measured on 2026-12-02 and not adopted
(docs/measurements/akt-speed.md, "Two forms measured and not adopted").  Each writes a copy of a model
directory with one graph changed or added; nothing in the app reads them.

  /usr/bin/python3 training/akt/alternatives.py fused-step --models public/models/akt --out /tmp/akt-step
      adds akt_step.onnx: append and readout in one graph (one run per answer instead of two).
      The new row's slices are concatenated to the cache inside the graph, so the readout sees
      the same operands; outputs p_correct and the appended cache (new_cache_i, new_ke_i).
      Timed against the app's two calls by `npx tsx training/akt/time_fused_step.mjs --dir /tmp/akt-step`.
  /usr/bin/python3 training/akt/alternatives.py readout-2d --models public/models/akt --out /tmp/akt-2d \
          --checkpoint training/akt/checkpoints/assist2009_pid_fold1.pt
      replaces akt_readout.onnx by one whose candidate rows are 2-D ([C, d], a batch of one), so
      that onnxruntime fuses every Linear's MatMul + Add (+ ReLU) into one Gemm.  Timed with
      `npm run bench:kt-nodes -- --models /tmp/akt-2d --compare public/models/akt --wall-only`.
"""
from __future__ import annotations

import argparse
import math
import os
import shutil
import sys

import onnx
from onnx import TensorProto, compose, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def copy_models(src: str, out: str) -> None:
    os.makedirs(out, exist_ok=True)
    for f in os.listdir(src):
        shutil.copy(os.path.join(src, f), os.path.join(out, f))


def fused_step(models: str, out: str) -> None:
    app = compose.add_prefix(onnx.load(os.path.join(models, "akt_append.onnx")), "a/")
    read = compose.add_prefix(onnx.load(os.path.join(models, "akt_readout.onnx")), "r/")
    cache_in = [i.name[2:] for i in app.graph.input if i.name.startswith("a/cache_") or i.name.startswith("a/ke_")]
    read_cache = [i.name[2:] for i in read.graph.input if i.name.startswith("r/cache_")]
    shape = {i.name[2:]: i.type.tensor_type.shape.dim for i in read.graph.input}
    H, dk = shape["cache_0"][1].dim_value, shape["cache_0"][3].dim_value

    def rename(g, prefix, keep):
        names = {prefix + n: n for n in keep}
        for n in g.node:
            n.input[:] = [names.get(x, x) for x in n.input]
            n.output[:] = [names.get(x, x) for x in n.output]
        for v in list(g.input) + list(g.output):
            v.name = names.get(v.name, v.name)

    rename(app.graph, "a/", [i.name[2:] for i in app.graph.input] + ["cache_row", "ke_row"])
    rename(read.graph, "r/", [i.name[2:] for i in read.graph.input if not i.name.startswith("r/cache_")] + ["p_correct"])
    nodes, inits, outs = [], [helper.make_tensor("s/heads", TensorProto.INT64, [4], [1, H, 1, dk]),
                              helper.make_tensor("s/axis", TensorProto.INT64, [1], [1])], []
    # cache_i's new row is cache_row[:, i] (ke_i's ke_row[:, i]); a row [1, d] is also [1, H, 1, dk].
    slots = [(f"cache_{i}", "cache_row", i) for i in range(len(read_cache))] + \
            [(n, "ke_row", int(n.split("_")[1])) for n in cache_in if n.startswith("ke_")]
    for name, rows, i in slots:
        inits += [helper.make_tensor(f"s/{name}/from", TensorProto.INT64, [1], [i]),
                  helper.make_tensor(f"s/{name}/to", TensorProto.INT64, [1], [i + 1])]
        nodes += [helper.make_node("Slice", [rows, f"s/{name}/from", f"s/{name}/to", "s/axis"], [f"s/{name}/row"]),
                  helper.make_node("Reshape", [f"s/{name}/row", "s/heads"], [f"s/{name}/heads"]),
                  helper.make_node("Concat", [name, f"s/{name}/heads"], [f"new_{name}"], axis=2)]
        outs.append(helper.make_tensor_value_info(f"new_{name}", TensorProto.FLOAT, [1, H, "next", dk]))
    for n in read_cache:
        nodes.append(helper.make_node("Identity", [f"new_{n}"], [f"r/{n}"]))
    extra = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, H, "length", dk]) for n in read_cache if n not in cache_in]
    graph = helper.make_graph(list(app.graph.node) + nodes + list(read.graph.node), "akt_step",
                              list(app.graph.input) + extra + [i for i in read.graph.input if not i.name.startswith("r/cache_")],
                              [read.graph.output[0]] + outs, list(app.graph.initializer) + list(read.graph.initializer) + inits)
    model = helper.make_model(graph, opset_imports=app.opset_import)
    model.ir_version = app.ir_version
    onnx.checker.check_model(model)
    copy_models(models, out)
    onnx.save(model, os.path.join(out, "akt_step.onnx"))
    print(f"wrote {out}/akt_step.onnx ({len(graph.node)} nodes)")


def readout_2d(models: str, out: str, checkpoint: str) -> None:
    import torch
    import torch.nn.functional as F
    from akt_model import load_checkpoint
    from onnx_graphs import (CANDIDATE_TERMS, FastCandidates, FastReadout, _Reshape, _theta, cache_heads, cache_names,
                             monotonic_probs_keys, readout_roots)

    class Readout2D(FastReadout):
        """FastReadout for a batch of one with the candidates' rows as [C, d]."""

        def forward(self, *inputs):
            m = self.m
            heads, (root_self, root_hist, xc, qc0, vc0, s_self0, cand_out) = inputs[:4 * m.n_blocks], inputs[4 * m.n_blocks:]
            xc = _Reshape.apply(xc, (-1, m.d_model))
            merge = lambda a, t: _Reshape.apply(t.transpose(1, 2), (-1, a.d_model))  # noqa: E731 [1, H, C, dk] -> [C, d]
            for k, (qa, ret) in enumerate(zip(m.question_layers, m.retriever_layers)):
                a = qa.attn
                if k == 0:
                    qc, vc, s_self = qc0, vc0, s_self0
                else:
                    qc = _Reshape.apply(a.k_linear(xc), (-1, a.h, a.d_k)).transpose(0, 1)
                    vc = _Reshape.apply(a.v_linear(xc), (-1, a.h, a.d_k)).transpose(0, 1)
                    s_self = torch.sum(qc * qc, dim=-1, keepdim=True) / math.sqrt(a.d_k)
                scores = torch.cat([torch.matmul(qc, heads[4 * k].transpose(-2, -1)) / math.sqrt(a.d_k), s_self], dim=-1)
                p = monotonic_probs_keys(scores, root_self * _theta(a.gammas).transpose(-1, -2))
                xc = qa.post(xc, a.out_proj(merge(a, torch.matmul(p[..., :-1], heads[4 * k + 1]) + p[..., -1:] * vc)))
                r = ret.attn
                qr = _Reshape.apply(r.k_linear(xc), (-1, r.h, r.d_k)).transpose(0, 1)
                scores = torch.matmul(qr, heads[4 * k + 2].transpose(-2, -1)) / math.sqrt(r.d_k)
                p = monotonic_probs_keys(scores, root_hist * _theta(r.gammas).transpose(-1, -2))
                xc = ret.post(xc, r.out_proj(merge(r, torch.matmul(p, heads[4 * k + 3]))))
            first = m.out[0]
            pre = F.linear(xc, first.weight[:, :m.d_model]) + _Reshape.apply(cand_out, (-1, first.out_features))
            return torch.sigmoid(_Reshape.apply(m.out[1:](pre) * m.logit_scale + m.logit_bias, (1, -1)))

    m, _ = load_checkpoint(checkpoint)
    m.eval()
    g = torch.Generator().manual_seed(0)
    L, C = 9, 3
    ids = lambda hi: torch.randint(1, hi + 1, (1, L), generator=g).to(torch.int32)  # noqa: E731
    s, q, r = ids(m.n_skills), ids(m.n_questions), torch.randint(0, 2, (1, L), generator=g).to(torch.int32)
    with torch.no_grad():
        cache, ke = m.encode_with_ke(s, q, r)
        cs = torch.randint(1, m.n_skills + 1, (1, C), generator=g).to(torch.int32)
        args = (*cache_heads(m, cache, ke)[:4 * m.n_blocks], *readout_roots(L), *FastCandidates(m)(cs, torch.zeros(1, C, dtype=torch.int32)))
        diff = (FastReadout(m)(*args) - Readout2D(m)(*args)).abs().max().item()
    if diff > 1e-6:
        raise SystemExit(f"alternatives readout-2d: differs from FastReadout by {diff}")
    names, _ = cache_names(m)
    cand, cand_head = {1: "candidates"}, {2: "candidates"}
    axes = {**{k: {2: "length"} for k in names}, "root_self": {2: "keys"}, "root_hist": {2: "length"}, "cand_x": cand,
            "cand_k": cand_head, "cand_v": cand_head, "cand_self": cand_head, "cand_out": cand, "p_correct": {1: "candidates"}}
    copy_models(models, out)
    path = os.path.join(out, "akt_readout.onnx")
    torch.onnx.export(Readout2D(m), args, path, opset_version=17, input_names=names + ["root_self", "root_hist"] + CANDIDATE_TERMS,
                      output_names=["p_correct"], dynamic_axes=axes, do_constant_folding=True)
    onnx.checker.check_model(onnx.load(path))
    print(f"wrote {path} (PyTorch: within {diff:.1e} of FastReadout)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("variant", choices=["fused-step", "readout-2d"])
    ap.add_argument("--models", default="public/models/akt")
    ap.add_argument("--out", required=True)
    ap.add_argument("--checkpoint", default="training/akt/checkpoints/assist2009_pid_fold1.pt")
    a = ap.parse_args()
    if os.path.abspath(a.out) == os.path.abspath(a.models):
        raise SystemExit("alternatives: --out must be another directory than --models (it is a copy)")
    if a.variant == "fused-step":
        fused_step(a.models, a.out)
    else:
        readout_2d(a.models, a.out, a.checkpoint)


if __name__ == "__main__":
    main()
