"""Write the PyTorch side of the ONNX parity fixture (training/akt/fixtures/akt_parity.json).

  /usr/bin/python3 training/akt/make_fixture.py --checkpoint CKPT --models public/models/akt

Sequences are synthetic (seeded random ids, no learner data).  Cases:
  full/padded   3 sequences of lengths 12, 5, 1, right-padded to 12
  full/long     one sequence of 230 rows (longer than the 199-row context window)
  readout/padded   histories of 7, 0 and 3 rows (the empty one is a single padding row with
                   hist_len 0), right-padded to 7, 4 candidates each (one with question 0)
  readout/window   the last max_history rows of a 230-row history, candidates = every skill
                   with question 0 (the per-skill belief map) plus 2 specific questions
For every readout case the fixture holds both the torch readout and the torch full forward's
last-row prediction of history + candidate, so node can check encode+readout against full.
The fixture records the sha256 of the ONNX files it was made for.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from akt_model import load_checkpoint  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--models", default="public/models/akt")
    ap.add_argument("--out", default="training/akt/fixtures/akt_parity.json")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    torch.set_num_threads(2)
    m, ck = load_checkpoint(args.checkpoint)
    with open(os.path.join(args.models, "meta.json")) as f:
        meta = json.load(f)
    max_hist = meta["context_window"]["max_history"]
    g = torch.Generator().manual_seed(args.seed)
    nS, nQ = m.n_skills, m.n_questions

    def seq(n):
        return (torch.randint(1, nS + 1, (n,), generator=g), torch.randint(1, nQ + 1, (n,), generator=g),
                torch.randint(0, 2, (n,), generator=g))

    def padded(seqs, L=None):
        L = L or max(1, max(len(s[0]) for s in seqs))
        out = [torch.zeros(len(seqs), L, dtype=torch.long) for _ in range(3)]
        for b, s in enumerate(seqs):
            for k in range(3):
                out[k][b, :len(s[k])] = s[k]
        return out

    def full_p(s, q, r):
        with torch.no_grad():
            lo, _ = m(s, q, r)
        return torch.sigmoid(lo)

    cases_full, cases_readout = [], []
    # full / padded
    seqs = [seq(12), seq(5), seq(1)]
    s, q, r = padded(seqs)
    cases_full.append({"name": "padded", "lengths": [12, 5, 1], "skills": s.tolist(), "questions": q.tolist(),
                       "responses": r.tolist(), "p_correct": full_p(s, q, r).tolist()})
    # full / long
    long = seq(230)
    s, q, r = (x.unsqueeze(0) for x in long)
    cases_full.append({"name": "long", "lengths": [230], "skills": s.tolist(), "questions": q.tolist(),
                       "responses": r.tolist(), "p_correct": full_p(s, q, r).tolist()})

    def readout_case(name, hists, cands):
        hs, hq, hr = padded(hists)
        lens = [len(h[0]) for h in hists]
        cs = torch.tensor([[c[0] for c in cc] for cc in cands])
        cq = torch.tensor([[c[1] for c in cc] for cc in cands])
        with torch.no_grad():
            cache = m.encode(hs, hq, hr)
            p = torch.sigmoid(m.readout(cache, torch.tensor(lens, dtype=torch.int32), cs, cq))
        p_full = []
        for b, h in enumerate(hists):
            row = []
            for c in range(cs.size(1)):
                ss = torch.cat([h[0], cs[b, c:c + 1]]).unsqueeze(0)
                qq = torch.cat([h[1], cq[b, c:c + 1]]).unsqueeze(0)
                rr = torch.cat([h[2], torch.zeros(1, dtype=torch.long)]).unsqueeze(0)
                row.append(float(full_p(ss, qq, rr)[0, -1]))
            p_full.append(row)
        return {"name": name, "hist_len": lens, "skills": hs.tolist(), "questions": hq.tolist(), "responses": hr.tolist(),
                "cand_skills": cs.tolist(), "cand_questions": cq.tolist(), "p_readout": p.tolist(),
                "p_full_last_row": p_full,
                "max_abs_torch_readout_vs_full": max(abs(a - b) for ra, rb in zip(p.tolist(), p_full) for a, b in zip(ra, rb))}

    empty = (torch.zeros(0, dtype=torch.long),) * 3
    hists = [seq(7), empty, seq(3)]
    cands = [[(int(torch.randint(1, nS + 1, (1,), generator=g)), qid) for qid in (0, 1, 5000, nQ)] for _ in hists]
    cases_readout.append(readout_case("padded", hists, cands))
    win = tuple(x[-max_hist:] for x in long)
    cands = [[(k, 0) for k in range(1, nS + 1)] + [(int(long[0][-1]), int(long[1][-1])), (1, 2)]]
    cases_readout.append(readout_case("window", [win], cands))

    with open(os.path.join(args.models, "meta.json")) as f:
        meta = json.load(f)
    fixture = {
        "description": "PyTorch reference outputs for training/akt/check_onnx.mjs; synthetic ids, no learner data",
        "made_by": "training/akt/make_fixture.py", "checkpoint_epoch": ck.get("epoch"),
        "onnx_sha256": {k: v["sha256"] for k, v in meta["graphs"].items()},
        "max_history": max_hist, "tolerance": 1e-4,
        "full": cases_full, "readout": cases_readout,
    }
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(fixture, f, separators=(",", ":"))
    for c in cases_readout:
        print(f"readout/{c['name']}: torch readout vs torch full last row max|diff| = {c['max_abs_torch_readout_vs_full']:.3g}")
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes)")


if __name__ == "__main__":
    main()
