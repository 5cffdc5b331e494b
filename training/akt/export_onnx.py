"""Export a trained AKT checkpoint to five ONNX graphs (opset 17, fp32) plus meta.json and the
per-question difficulties, for onnxruntime-web.

  /usr/bin/python3 training/akt/export_onnx.py --checkpoint CKPT --out public/models/akt \
      --data /work/shared/data/assist2009_pid [--metrics RUN/metrics.json ...]

Graphs (all integer inputs are int32 final indices; nothing inside a graph does arithmetic on
them -- they feed Gather directly, and ``hist_len`` is only cast to float for comparisons):

  akt_full.onnx     skills, questions, responses [B, L]        -> p_correct [B, L]
  akt_encode.onnx   skills, questions, responses [B, L]        -> cache [B, 4*n_blocks, L, d_model],
                                                                 ke_cache [B, 2*n_blocks, L, d_model]
  akt_append.onnx   cache, ke_cache [1, ., L, d], skill,
                    question, response [1, 1]                  -> cache_row [1, 4*n_blocks, 1, d_model],
                                                                 ke_row [1, 2*n_blocks, 1, d_model]
  akt_readout.onnx  cache, hist_len [B], cand_skills [B, C],
                    cand_questions [B, C]                     -> p_correct [B, C]

(as akt_model.py's; the shipped graphs, format educlaw-akt-onnx/3 from onnx_graphs.py, keep the
cache per slice and head, cache_i / ke_i [B, H, L, d_k]; the readout takes no hist_len and its
candidates as the outputs of

  akt_candidates.onnx cand_skills, cand_questions [B, C]      -> cand_x, cand_k, cand_v, cand_self, cand_out

with root_self / root_hist, the square roots of the distances; append takes its distances:
meta.json lists every input and output.)

readout and append are exported from onnx_graphs.py (the same functions as AKT.readout /
AKT.append, checked against them here before anything is written, with fewer and cheaper kernels;
--reference-graphs exports them from akt_model.py instead, as shipped before 2026-12-01).

Also writes difficulty.f32 (little-endian float32 u_q for question ids 0..n_questions; u_0 = 0),
items.json (skills of each question id as seen in the data, and observation counts) and
meta.json (the contract; see docs/kt/model-card.md).
"""
from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import sys
import warnings
from collections import defaultdict

import numpy as np
import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kt_data  # noqa: E402
from akt_model import AKT, load_checkpoint  # noqa: E402
from onnx_graphs import (CANDIDATE_TERMS, ROW_BLOCKS, FastAppend, FastCandidates, FastEncode, FastReadout, append_distances,  # noqa: E402
                         cache_heads, cache_names, readout_roots)

OPSET = 17
# Format 3: the readout takes its candidates' terms (akt_candidates.onnx) and its length's distance
# terms as inputs, append its distances; 2: the cache is one tensor per slice and per head
# (onnx_graphs.py); 1: the stacked cache of akt_model.py.
FORMAT = "educlaw-akt-onnx/3"
# akt_model._MassAfter's symbolic emits a Constant node (the CumSum axis); torch 1.13 warns that it has
# no shape inference for it, which is harmless for a scalar constant.
warnings.filterwarnings("ignore", message="The shape inference of prim::Constant")
FILES = {"full": "akt_full.onnx", "encode": "akt_encode.onnx", "readout": "akt_readout.onnx", "append": "akt_append.onnx",
         "candidates": "akt_candidates.onnx"}


class Full(nn.Module):
    def __init__(self, m: AKT):
        super().__init__()
        self.m = m

    def forward(self, skills, questions, responses):
        logits, _ = self.m(skills, questions, responses)
        return torch.sigmoid(logits)


class Encode(nn.Module):
    def __init__(self, m: AKT):
        super().__init__()
        self.m = m

    def forward(self, skills, questions, responses):
        return self.m.encode_with_ke(skills, questions, responses)


class Append(nn.Module):
    def __init__(self, m: AKT):
        super().__init__()
        self.m = m

    def forward(self, cache, ke_cache, skill, question, response):
        return self.m.append(cache, ke_cache, skill, question, response)


class Readout(nn.Module):
    def __init__(self, m: AKT):
        super().__init__()
        self.m = m

    def forward(self, cache, hist_len, cand_skills, cand_questions):
        return torch.sigmoid(self.m.readout(cache, hist_len, cand_skills, cand_questions))


def check_fast_graphs(m: AKT, tol: float = 1e-5) -> None:
    """The exported readout / append (onnx_graphs.py) against the reference AKT.readout / AKT.append
    in PyTorch, on padded histories (one empty) and random candidates; stops the export on a
    difference above tol."""
    g = torch.Generator().manual_seed(1)
    B, L, C = 3, 40, 9
    s = torch.randint(1, m.n_skills + 1, (B, L), generator=g)
    q = torch.randint(1, m.n_questions + 1, (B, L), generator=g)
    r = torch.randint(0, 2, (B, L), generator=g)
    hl = torch.tensor([L, 0, 13], dtype=torch.int32)
    cs = torch.randint(1, m.n_skills + 1, (B, C), generator=g)
    cq = torch.randint(0, m.n_questions + 1, (B, C), generator=g)
    with torch.no_grad():
        cache, ke = m.encode_with_ke(s, q, r)
        heads = cache_heads(m, cache, ke)
        n4 = 4 * m.n_blocks
        d_enc = max((a - b).abs().max().item() for a, b in zip(heads, FastEncode(m)(s, q, r)))
        # The encoding's row blocks (onnx_graphs.ROW_BLOCKS) begin at 64 and 128 rows: lengths
        # around them (a last block of one and two rows) and the longest window.
        for Lb in (64, 65, 66, 129, 199):
            sb, qb, rb = (torch.randint(lo, hi, (1, Lb), generator=g) for lo, hi in ((1, m.n_skills + 1), (1, m.n_questions + 1), (0, 2)))
            cb, kb = m.encode_with_ke(sb, qb, rb)
            d_enc = max(d_enc, max((a - b).abs().max().item() for a, b in zip(cache_heads(m, cb, kb), FastEncode(m)(sb, qb, rb))))
        # The exported readout takes one unpadded history at a time (length 0 for the empty one).
        ref_read = torch.sigmoid(m.readout(cache, hl, cs, cq))
        d_read = max((ref_read[b] - FastReadout(m)(*(t[b:b + 1, :, :int(hl[b])] for t in heads[:n4]), *readout_roots(int(hl[b])),
                                                   *FastCandidates(m)(cs[b:b + 1], cq[b:b + 1]))[0]).abs().max().item()
                     for b in range(B))
        ref = m.append(cache[:1], ke[:1], s[:1, :1], q[:1, :1], r[:1, :1])
        fast = FastAppend(m)(*(t[:1] for t in heads[:n4 - 2] + heads[n4:]), append_distances(L), s[:1, :1], q[:1, :1], r[:1, :1])
        d_app = max((a - b).abs().max().item() for a, b in zip(ref, fast))
    print(f"exported graphs vs reference (torch): encode max|diff| {d_enc:.3g}, readout {d_read:.3g}, append {d_app:.3g}")
    if not (d_enc <= tol and d_read <= tol and d_app <= tol):
        raise SystemExit(f"export_onnx: onnx_graphs.py differs from akt_model.py by more than {tol} "
                         f"(encode {d_enc:.3g}, readout {d_read:.3g}, append {d_app:.3g}); not exporting")


def export_all(m: AKT, out_dir: str, reference_graphs: bool = False) -> dict:
    os.makedirs(out_dir, exist_ok=True)
    if not reference_graphs:
        check_fast_graphs(m)
    B, L, C = 2, 9, 3
    g = torch.Generator().manual_seed(0)
    s = torch.randint(1, m.n_skills + 1, (B, L), generator=g, dtype=torch.int64).to(torch.int32)
    q = torch.randint(1, m.n_questions + 1, (B, L), generator=g, dtype=torch.int64).to(torch.int32)
    r = torch.randint(0, 2, (B, L), generator=g, dtype=torch.int64).to(torch.int32)
    with torch.no_grad():
        cache, ke = m.encode_with_ke(s, q, r)
        heads = cache_heads(m, cache, ke)
    names, ke_names = cache_names(m)
    n4 = len(names)
    one = lambda t: t[:1, :1].contiguous()  # noqa: E731
    hl = torch.tensor([L, L - 2], dtype=torch.int32)
    cs = torch.randint(1, m.n_skills + 1, (B, C), generator=g, dtype=torch.int64).to(torch.int32)
    cq = torch.zeros(B, C, dtype=torch.int32)
    seq_axes = {0: "batch", 1: "length"}
    per_head = {0: "batch", 2: "length"}
    terms = FastCandidates(m)(cs, cq)
    by_cand, by_cand_head = {0: "batch", 1: "candidates"}, {0: "batch", 2: "candidates"}
    term_axes = {"cand_x": by_cand, "cand_k": by_cand_head, "cand_v": by_cand_head, "cand_self": by_cand_head, "cand_out": by_cand}
    fast = {
        "candidates": (FastCandidates(m), (cs, cq), ["cand_skills", "cand_questions"], CANDIDATE_TERMS,
                       {"cand_skills": {0: "batch", 1: "candidates"}, "cand_questions": {0: "batch", 1: "candidates"}, **term_axes}),
        "encode": (FastEncode(m), (s, q, r), ["skills", "questions", "responses"], names + ke_names,
                   {"skills": seq_axes, "questions": seq_axes, "responses": seq_axes, **{k: per_head for k in names + ke_names}}),
        "append": (FastAppend(m), (*(t[:1].contiguous() for t in heads[:n4 - 2] + heads[n4:]), append_distances(L), one(s), one(q), one(r)),
                   names[:-2] + ke_names + ["distances", "skill", "question", "response"], ["cache_row", "ke_row"],
                   {**{k: {2: "length"} for k in names[:-2] + ke_names}, "distances": {3: "keys"}}),
        "readout": (FastReadout(m), (*heads[:n4], *readout_roots(L), *terms), names + ["root_self", "root_hist"] + CANDIDATE_TERMS, ["p_correct"],
                    {**{k: per_head for k in names}, "root_self": {2: "keys"}, "root_hist": {2: "length"}, **term_axes,
                     "p_correct": {0: "batch", 1: "candidates"}}),
    }
    specs = {
        "full": (Full(m), (s, q, r), ["skills", "questions", "responses"], ["p_correct"],
                 {"skills": seq_axes, "questions": seq_axes, "responses": seq_axes, "p_correct": seq_axes}),
        "encode": (Encode(m), (s, q, r), ["skills", "questions", "responses"], ["cache", "ke_cache"],
                   {"skills": seq_axes, "questions": seq_axes, "responses": seq_axes, "cache": {0: "batch", 2: "length"},
                    "ke_cache": {0: "batch", 2: "length"}}),
        "append": (Append(m), (cache[:1], ke[:1], one(s), one(q), one(r)), ["cache", "ke_cache", "skill", "question", "response"],
                   ["cache_row", "ke_row"], {"cache": {2: "length"}, "ke_cache": {2: "length"}}),
        "readout": (Readout(m), (cache, hl, cs, cq), ["cache", "hist_len", "cand_skills", "cand_questions"], ["p_correct"],
                    {"cache": {0: "batch", 2: "length"}, "hist_len": {0: "batch"},
                     "cand_skills": {0: "batch", 1: "candidates"}, "cand_questions": {0: "batch", 1: "candidates"},
                     "p_correct": {0: "batch", 1: "candidates"}}),
    }
    if not reference_graphs:
        specs.update(fast)
    info = {}
    for name, (mod, inputs, in_names, out_names, axes) in specs.items():
        path = os.path.join(out_dir, FILES[name])
        mod.eval()
        torch.onnx.export(mod, inputs, path, opset_version=OPSET, input_names=in_names, output_names=out_names,
                          dynamic_axes=axes, do_constant_folding=True)
        import onnx
        model = onnx.load(path)
        onnx.checker.check_model(model)
        ops = sorted({n.op_type for n in model.graph.node})
        info[name] = {"file": FILES[name], "bytes": os.path.getsize(path), "sha256": sha256(path), "ops": ops}
        print(f"exported {path} ({info[name]['bytes']} bytes) ops={ops}")
    return info


def sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


def graphs_meta(info: dict, cfg: dict, reference_graphs: bool) -> dict:
    """meta.json's "graphs": each graph's file, hash and ops (info) with its inputs and outputs."""
    d, nb, h = cfg["d_model"], cfg["n_blocks"], cfg["n_heads"]
    dk = d // h
    i32 = "int32"
    full = {
        **info["full"],
        "purpose": "evaluation and parity: P(correct on row t | rows < t) for every row",
        "inputs": [
            {"name": "skills", "dtype": i32, "shape": ["batch", "length"]},
            {"name": "questions", "dtype": i32, "shape": ["batch", "length"]},
            {"name": "responses", "dtype": i32, "shape": ["batch", "length"]},
        ],
        "outputs": [{"name": "p_correct", "dtype": "float32", "shape": ["batch", "length"],
                     "meaning": "row t's prediction ignores rows >= t, including its own response; right padding does not change earlier rows"}],
    }
    hist_in = [
        {"name": "skills", "dtype": i32, "shape": ["batch", "length"], "meaning": "history rows, oldest first, right-padded with 0"},
        {"name": "questions", "dtype": i32, "shape": ["batch", "length"]},
        {"name": "responses", "dtype": i32, "shape": ["batch", "length"]},
    ]
    cand_in = [
        {"name": "hist_len", "dtype": i32, "shape": ["batch"], "meaning": "number of real history rows per batch item (<= length); rows at or after it are ignored"},
        {"name": "cand_skills", "dtype": i32, "shape": ["batch", "candidates"]},
        {"name": "cand_questions", "dtype": i32, "shape": ["batch", "candidates"], "meaning": "0 = average difficulty (u_q = 0)"},
    ]
    row_in = [{"name": "skill", "dtype": i32, "shape": [1, 1]}, {"name": "question", "dtype": i32, "shape": [1, 1]},
              {"name": "response", "dtype": i32, "shape": [1, 1]}]
    rows_out = [{"name": "cache_row", "dtype": "float32", "shape": [1, 4 * nb, 1, d],
                 "meaning": "row i ([1, d], which is also [1, H, 1, d_k] per head) is appended along length to cache_i (to cache[:, i] in format 1)"},
                {"name": "ke_row", "dtype": "float32", "shape": [1, 2 * nb, 1, d], "meaning": "row i is appended along length to ke_i (ke_cache[:, i] in format 1)"}]
    readout_out = [{"name": "p_correct", "dtype": "float32", "shape": ["batch", "candidates"],
                    "meaning": "equals full's prediction for a row (cand_skill, cand_question) appended at position hist_len"}]
    read_purpose = "P(correct) of C candidate next items, computing only the new last row"
    app_purpose = ("extend a history of L >= 1 real rows (no padding) by one row without re-encoding it; "
                   "exact while the history's first row stays the same (no row dropped from the front)")
    if reference_graphs:  # format 1: the stacked cache of akt_model.py, heads not split
        return {
            "full": full,
            "encode": {**info["encode"], "purpose": "history -> cache", "inputs": hist_in,
                       "outputs": [{"name": "cache", "dtype": "float32", "shape": ["batch", 4 * nb, "length", d],
                                    "meaning": "for block k: [4k] question-layer keys, [4k+1] question-layer values, [4k+2] retriever keys, [4k+3] retriever values (knowledge-encoder outputs), each projected, heads not split"},
                                   {"name": "ke_cache", "dtype": "float32", "shape": ["batch", 2 * nb, "length", d],
                                    "meaning": "for knowledge-encoder layer i: [2i] keys, [2i+1] values, projected; only append needs it"}]},
            "append": {**info["append"], "purpose": app_purpose,
                       "inputs": [{"name": "cache", "dtype": "float32", "shape": [1, 4 * nb, "length", d]},
                                  {"name": "ke_cache", "dtype": "float32", "shape": [1, 2 * nb, "length", d]}, *row_in],
                       "outputs": rows_out},
            "readout": {**info["readout"], "purpose": read_purpose,
                        "inputs": [{"name": "cache", "dtype": "float32", "shape": ["batch", 4 * nb, "length", d]}, *cand_in],
                        "outputs": readout_out},
        }
    per_head = lambda name, meaning: {"name": name, "dtype": "float32", "shape": ["batch", h, "length", dk], "meaning": meaning}  # noqa: E731
    slot = ["question-layer keys", "question-layer values", "retriever keys", "retriever values (knowledge-encoder outputs)"]
    caches = [per_head(f"cache_{4 * k + j}", f"block {k}: {slot[j]}, projected, per head") for k in range(nb) for j in range(4)]
    kes = [per_head(f"ke_{2 * i + j}", f"knowledge-encoder layer {i}: {('keys', 'values')[j]}, projected, per head; only append reads it")
           for i in range(nb) for j in range(2)]
    f32 = "float32"
    terms = [
        {"name": "cand_x", "dtype": f32, "shape": ["batch", "candidates", d], "meaning": "the candidate's question embedding"},
        {"name": "cand_k", "dtype": f32, "shape": ["batch", h, "candidates", dk], "meaning": "block 0's question-layer key (and query) of the candidate, per head"},
        {"name": "cand_v", "dtype": f32, "shape": ["batch", h, "candidates", dk], "meaning": "block 0's question-layer value of the candidate, per head"},
        {"name": "cand_self", "dtype": f32, "shape": ["batch", h, "candidates", 1], "meaning": "the candidate's attention score with itself, cand_k . cand_k / sqrt(d_k)"},
        {"name": "cand_out", "dtype": f32, "shape": ["batch", "candidates", "d_out"],
         "meaning": "the candidate's half of the output layer's first product, with that layer's bias"},
    ]
    roots = [
        {"name": "root_self", "dtype": f32, "shape": [1, 1, "length + 1", 1],
         "meaning": "sqrt(length - j) for keys j = 0..length-1, then 0 (the candidate itself): a function of the length alone"},
        {"name": "root_hist", "dtype": f32, "shape": [1, 1, "length", 1], "meaning": "sqrt(length - j) for keys j = 0..length-1"},
    ]
    distances = {"name": "distances", "dtype": f32, "shape": [1, 1, 1, "length + 1"],
                 "meaning": "length - j for keys j = 0..length (the new row last): a function of the length alone"}
    return {
        "full": full,
        "encode": {**info["encode"], "purpose": "history -> the cache, per head (onnx_graphs.py: FastEncode)", "inputs": hist_in, "outputs": caches + kes,
                   "row_blocks": list(ROW_BLOCKS)},
        "append": {**info["append"], "purpose": app_purpose + (f"; the last block's retriever keys and values (cache_{4 * nb - 2}, cache_{4 * nb - 1}) are not inputs: "
                                                               "nothing in the new row reads them"),
                   "inputs": [{**c, "shape": [1, h, "length", dk]} for c in caches[:4 * nb - 2] + kes] + [distances] + row_in, "outputs": rows_out},
        "candidates": {**info["candidates"], "purpose": "what a readout computes from its candidates alone (onnx_graphs.py: FastCandidates); "
                                                        "compute once per candidate set and pass to readout",
                       "inputs": cand_in[1:], "outputs": terms},
        "readout": {**info["readout"], "purpose": read_purpose + "; every cached row is a real history row (no padding, no hist_len); "
                                                                "an empty history is cache tensors of length 0; the candidates come as "
                                                                "candidates' outputs, the length as root_self / root_hist",
                    "inputs": caches + roots + terms, "outputs": readout_out},
    }


def empty_history_rule(reference_graphs: bool) -> str:
    if reference_graphs:
        return "pass one padding row (skills=questions=responses=0, L=1) to encode and hist_len=0 to readout"
    return "readout: cache tensors of length 0 ([1, H, 0, d_k]); nothing to encode"


def update_graphs(m: AKT, ck: dict, args) -> None:
    """--update-graphs: the graphs of the model already in args.out, in a new form."""
    path = os.path.join(args.out, "meta.json")
    with open(path) as f:
        meta = json.load(f)
    cfg = m.config()
    hp = meta.get("hyperparameters", {})
    wrong = [k for k in cfg if hp.get(k) != cfg[k]]
    cal = ck.get("calibration", {"method": "none", "a": 1.0, "b": 0.0})
    if wrong or meta.get("calibration", {}).get("a") != cal.get("a") or meta.get("calibration", {}).get("b") != cal.get("b"):
        raise SystemExit(f"export_onnx --update-graphs: {args.checkpoint} is not the model in {path} "
                         f"(differs in {', '.join(wrong) or 'calibration'}); export it whole instead")
    with open(os.path.join(args.out, meta["difficulty"]["file"]), "rb") as f:
        u = np.frombuffer(f.read(), dtype="<f4")
    if not np.array_equal(u, m.difficult_param.weight.detach().numpy().reshape(-1).astype("<f4")):
        raise SystemExit(f"export_onnx --update-graphs: {args.checkpoint}'s question difficulties differ from {args.out}'s difficulty.f32")
    info = export_all(m, args.out, args.reference_graphs)
    meta["format"] = "educlaw-akt-onnx/1" if args.reference_graphs else FORMAT
    meta["graphs"] = graphs_meta(info, cfg, args.reference_graphs)
    meta["context_window"]["empty_history"] = empty_history_rule(args.reference_graphs)
    meta["graphs_exported"] = datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ")
    meta["torch"] = torch.__version__
    with open(path, "w") as f:
        json.dump(meta, f, indent=1)
    print(f"updated the graphs in {path}; the model ({meta.get('exported')}) is unchanged")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--out", default="public/models/akt")
    ap.add_argument("--data", help="dataset directory (for question->skill map and skill names); not with --update-graphs")
    ap.add_argument("--update-graphs", action="store_true",
                    help="re-export only the graphs into --out and their entries in its meta.json, keeping the rest "
                         "(the model's identity `exported`, calibration, runs, items.json, difficulty.f32): for a new form "
                         "of the graphs that computes the same function of the same checkpoint")
    ap.add_argument("--metrics", nargs="*", default=[], help="metrics.json files of runs to cite in meta.json")
    ap.add_argument("--max-history", type=int, default=None, help="default: seqlen - 1 of the training run")
    ap.add_argument("--reference-graphs", action="store_true",
                    help="export readout / append straight from akt_model.py (the graphs shipped before "
                         "onnx_graphs.py; for side-by-side timing) instead of onnx_graphs.py's faster form")
    args = ap.parse_args()
    torch.set_num_threads(2)
    m, ck = load_checkpoint(args.checkpoint)
    cfg = m.config()
    seqlen = int(ck.get("args", {}).get("seqlen", 200))
    max_hist = args.max_history or seqlen - 1
    if args.update_graphs:
        update_graphs(m, ck, args)
        return
    if not args.data:
        ap.error("--data is required (unless --update-graphs)")
    info = export_all(m, args.out, args.reference_graphs)

    # per-question difficulty
    u = m.difficult_param.weight.detach().numpy().reshape(-1).astype("<f4")
    u.tofile(os.path.join(args.out, "difficulty.f32"))

    # question -> skills and counts, from every student of the data set (fold 1 train+valid+test = all)
    ds = kt_data.load_dataset(args.data, int(ck.get("args", {}).get("fold", 1)), cfg["n_skills"], cfg["n_questions"])
    q_skills = defaultdict(set)
    q_count = np.zeros(cfg["n_questions"] + 1, np.int64)
    s_count = np.zeros(cfg["n_skills"] + 1, np.int64)
    train_q = np.zeros(cfg["n_questions"] + 1, np.int64)
    for part, studs in (("train", ds.train), ("valid", ds.valid), ("test", ds.test)):
        for st in studs:
            prevq, prevr = -1, -1
            for qq, ss, rr in zip(st.questions.tolist(), st.skills.tolist(), st.responses.tolist()):
                q_skills[qq].add(ss)
                s_count[ss] += 1
                if not (qq == prevq and rr == prevr):  # count each answer once, not once per KC row
                    q_count[qq] += 1
                    if part == "train":
                        train_q[qq] += 1
                prevq, prevr = qq, rr
    items = {
        "description": "Question ids 1..n_questions of the training data. skills[q] lists the skill ids that question q "
                       "was tagged with (a multi-skill answer is one KC row per skill, consecutive, same response). "
                       "answers[q] counts answers to q in the whole data set (all folds); train_answers[q] only in the "
                       "training file of the exported checkpoint (u_q of a question never seen in training stays 0). "
                       "p_cold[q] = model P(correct) for q (with its lowest skill id) as the first row of a history. "
                       "Index 0 is a placeholder.",
        "n_questions": cfg["n_questions"],
        "skills": [sorted(q_skills.get(i, [])) for i in range(cfg["n_questions"] + 1)],
        "answers": q_count.tolist(),
        "train_answers": train_q.tolist(),
    }
    items["skills"][0] = []
    # cold-start P(correct) of each question (empty history; its lowest skill id), and a sign check of u_q
    first_skill = torch.tensor([min(items["skills"][i]) if items["skills"][i] else 1 for i in range(cfg["n_questions"] + 1)])
    qids = torch.arange(cfg["n_questions"] + 1)
    with torch.no_grad():
        cache0 = m.encode(torch.zeros(1, 1, dtype=torch.long), torch.zeros(1, 1, dtype=torch.long), torch.zeros(1, 1, dtype=torch.long))
        p_cold = torch.sigmoid(m.readout(cache0, torch.zeros(1, dtype=torch.int32), first_skill.unsqueeze(0), qids.unsqueeze(0)))[0]
        p_skill = torch.sigmoid(m.readout(cache0, torch.zeros(1, dtype=torch.int32), torch.arange(1, cfg["n_skills"] + 1).unsqueeze(0),
                                          torch.zeros(1, cfg["n_skills"], dtype=torch.long)))[0]
    items["p_cold"] = [round(float(x), 4) for x in p_cold]
    items["p_cold"][0] = None
    # empirical correct rate of well-observed training questions vs u_q
    corr_n = np.zeros(cfg["n_questions"] + 1)
    corr_k = np.zeros(cfg["n_questions"] + 1)
    for st in ds.train:
        prevq, prevr = -1, -1
        for qq, rr in zip(st.questions.tolist(), st.responses.tolist()):
            if not (qq == prevq and rr == prevr):
                corr_n[qq] += 1
                corr_k[qq] += rr
            prevq, prevr = qq, rr
    sel = corr_n >= 10
    sel[0] = False

    def spearman(a, b):
        ra, rb = np.argsort(np.argsort(a)), np.argsort(np.argsort(b))
        return float(np.corrcoef(ra, rb)[0, 1])
    uq = m.difficult_param.weight.detach().numpy().reshape(-1)
    sign_check = {"questions_with_10plus_train_answers": int(sel.sum()),
                  "spearman_u_q_vs_train_correct_rate": spearman(uq[sel], corr_k[sel] / corr_n[sel]),
                  "spearman_p_cold_vs_train_correct_rate": spearman(p_cold.numpy()[sel], corr_k[sel] / corr_n[sel])}
    print("difficulty sign check:", sign_check)
    with open(os.path.join(args.out, "items.json"), "w") as f:
        json.dump(items, f, separators=(",", ":"))

    skill_names = {}
    sk_path = os.path.join(args.data, "skill.json")
    if os.path.exists(sk_path):
        with open(sk_path) as f:
            raw = json.load(f)
        for name, sid in raw.items():
            skill_names[str(int(sid))] = name

    runs = []
    for mp in args.metrics:
        with open(mp) as f:
            mj = json.load(f)
        runs.append({"fold": mj["fold"], "best_epoch": mj["best_epoch"], "test_auc": mj["test"]["auc"], "test_acc": mj["test"]["acc"],
                     "valid_auc": mj["valid"]["auc"], "train_seconds_total": mj["train_seconds_total"], "metrics_file": os.path.relpath(mp)})

    d, nb = cfg["d_model"], cfg["n_blocks"]
    i32 = "int32"
    meta = {
        "format": "educlaw-akt-onnx/1" if args.reference_graphs else FORMAT,
        "model": "AKT-Rasch (Ghosh, Heffernan & Lan, KDD 2020), reimplemented in training/akt/akt_model.py",
        "exported": datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ"),
        "opset": OPSET, "precision": "fp32", "torch": torch.__version__,
        "dataset": {"name": os.path.basename(os.path.abspath(args.data)), "fold": ck.get("args", {}).get("fold"),
                    "layout": ds.layout, "id_shift": ck.get("id_shift", {"skill": 0, "question": 0})},
        "hyperparameters": {**cfg, "dropout": ck.get("args", {}).get("dropout"), "lr": ck.get("args", {}).get("lr"),
                            "batch": ck.get("args", {}).get("batch"), "seqlen": seqlen, "best_epoch": ck.get("epoch"),
                            "valid_auc": ck.get("valid_auc")},
        "calibration": ck.get("calibration", {"method": "none", "a": 1.0, "b": 0.0}),
        "n_skills": cfg["n_skills"], "n_questions": cfg["n_questions"],
        "ids": {
            "skills": "1..n_skills; 0 = padding",
            "questions": "1..n_questions; 0 = padding in histories, and in a candidate 'an item of average difficulty for the skill' (u_0 is fixed at 0)",
            "responses": "0 = incorrect, 1 = correct; 0 in padding rows",
            "dtype": "int32 for every integer input; values are used as final indices (Gather) with no arithmetic in the graph",
        },
        "rows": "KC level: an answer to a question tagged with k skills is k consecutive rows (same question id and response, one skill each), as in the training data",
        "context_window": {
            "max_history": max_hist,
            "rule": f"read at most the most recent max_history={max_hist} KC rows (drop the oldest); a candidate then sits at position <= {max_hist}, "
                    f"inside the training length seqlen={seqlen} (training pieces are at most {seqlen} rows, positions 0..{seqlen - 1}). "
                    "The app's tracer drops old rows in blocks of 16 (a window keeps the most recent max_history - 15 .. max_history rows), "
                    "so that most new answers are one append (src/core/learner/kt/akt.ts)",
            "empty_history": empty_history_rule(args.reference_graphs),
        },
        "graphs": graphs_meta(info, cfg, args.reference_graphs),
        "belief_map": "per-skill belief = readout with cand_skills = 1..n_skills and cand_questions = 0 (one call, C = n_skills)",
        "difficulty": {"file": "difficulty.f32", "dtype": "float32 little-endian", "length": cfg["n_questions"] + 1,
                       "meaning": "u_q, the learned Rasch scalar of question q (index 0 = 0). It scales the skill's variation vector, "
                                  "so its sign is only meaningful relative to the model: see sign_check. For an ordering by "
                                  "difficulty use items.json p_cold (P(correct) with an empty history) or a readout.",
                       "sign_check": sign_check,
                       "p_cold_by_skill_q0": [round(float(x), 4) for x in p_skill],
                       "bytes": os.path.getsize(os.path.join(args.out, "difficulty.f32")),
                       "sha256": sha256(os.path.join(args.out, "difficulty.f32"))},
        "items": {"file": "items.json", "bytes": os.path.getsize(os.path.join(args.out, "items.json")),
                  "sha256": sha256(os.path.join(args.out, "items.json"))},
        "skill_names": skill_names,
        "runtime": {"package": "onnxruntime-web", "checked_version": "1.30.0", "execution_provider": "wasm", "numThreads": 1},
        "runs": runs,
    }
    with open(os.path.join(args.out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    print(f"wrote {os.path.join(args.out, 'meta.json')}")


if __name__ == "__main__":
    main()
