"""How the simulator's context window changes predictions on real held-out students.

The simulator's tracer (src/core/learner/kt/akt.ts) reads at most max_history rows of a
learner's history. A longer history can drop its oldest rows one at a time (every prediction
sees exactly the last max_history rows: "slide by 1") or in blocks of 16 (the window's first row
moves 16 rows at a time, so it holds the last max_history - 15 .. max_history rows: "slide by
16", what the tracer does, because then most new answers are one append to a cached encoding
instead of a new encoding). This script scores both on every row of the held-out students that
has more than max_history rows before it (the only rows where the rules differ), next to the
training protocol's non-overlapping pieces of seqlen rows on the same rows.

  /usr/bin/python3 training/akt/eval_window.py --checkpoint training/akt/checkpoints/assist2009_pid_fold1.pt \
      --data /work/shared/data/assist2009_pid --fold 1 [--max-history 199] [--block 16] [--json out.json]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kt_data  # noqa: E402
import metrics  # noqa: E402
from akt_model import load_checkpoint  # noqa: E402


def window_start(t: int, max_hist: int, block: int) -> int:
    """First history row the tracer reads when predicting row t (t rows before it)."""
    return 0 if t <= max_hist else math.ceil((t - max_hist) / block) * block


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--fold", type=int, required=True)
    ap.add_argument("--max-history", type=int, default=199)
    ap.add_argument("--block", type=int, default=16)
    ap.add_argument("--seqlen", type=int, default=200)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    m, _ = load_checkpoint(args.checkpoint)
    m.eval()
    ds = kt_data.load_dataset(args.data, args.fold, m.n_skills, m.n_questions)
    H, B, S = args.max_history, args.block, args.seqlen

    # (student, t) for every row with more than H rows before it.
    targets = [(si, t) for si, st in enumerate(ds.test) for t in range(H + 1, len(st.skills))]
    if not targets:
        sys.exit(f"no test student of fold {args.fold} has more than {H} rows")
    y = np.array([ds.test[si].responses[t] for si, t in targets], np.int64)
    cont = np.array([t > 0 and kt_data.continuation_mask(ds.test[si].skills[t - 1:t + 1], ds.test[si].questions[t - 1:t + 1],
                                                          ds.test[si].responses[t - 1:t + 1])[1] for si, t in targets])

    def piece(si, a, b):
        st = ds.test[si]
        return st.skills[a:b], st.questions[a:b], st.responses[a:b]

    results = {}
    rules = {
        "slide_1": lambda t: t - H,
        f"slide_{B}": lambda t: window_start(t, H, B),
        f"pieces_{S}": lambda t: (t // S) * S,  # the training protocol: non-overlapping pieces
    }
    for name, start_of in rules.items():
        t0 = time.time()
        # Every target row whose window starts at row a of the same student is read from one
        # forward pass over rows a .. (the last such target): the model is causal, so the output
        # at each position only sees the rows before it in the piece.
        groups = {}
        for i, (si, t) in enumerate(targets):
            groups.setdefault((si, start_of(t)), []).append(i)
        pieces, keys = [], list(groups)
        for si, a in keys:
            pieces.append(piece(si, a, max(targets[i][1] for i in groups[(si, a)]) + 1))
        pos = np.zeros(len(targets), np.int64)
        p = np.zeros(len(targets), np.float64)
        order = sorted(range(len(pieces)), key=lambda k: len(pieces[k][0]))
        with torch.no_grad():
            for b0 in range(0, len(order), args.batch):
                idx = order[b0:b0 + args.batch]
                s_, q_, r_, _ = kt_data.pad_batch([pieces[k] for k in idx])
                logits, _ = m(*(torch.from_numpy(x) for x in (s_, q_, r_)))
                probs = torch.sigmoid(logits).numpy()
                for j, k in enumerate(idx):
                    si, a = keys[k]
                    for i in groups[(si, a)]:
                        pos[i] = targets[i][1] - a
                        p[i] = probs[j, pos[i]]
        r = metrics.summary(y, p)
        r.update(metrics.calibration(y, p))
        r["first_kc_row_only"] = metrics.summary(y[~cont], p[~cont])
        r["history_rows_read"] = {"min": int(pos.min()), "max": int(pos.max()), "mean": float(pos.mean())}
        r["forward_pieces"] = len(pieces)
        r["seconds"] = round(time.time() - t0, 1)
        results[name] = r
        print(f"{name:>11}: auc {r['auc']:.4f} acc {r['acc']:.4f} logloss {r['logloss']:.4f} brier {r['brier']:.4f} "
              f"ece {r['ece_10bin']:.4f} | first-KC-row only auc {r['first_kc_row_only']['auc']:.4f} | "
              f"rows read {r['history_rows_read']['min']}..{r['history_rows_read']['max']} "
              f"({len(pieces)} forward pieces, {r['seconds']} s)", flush=True)
    n_students = len({si for si, _ in targets})
    print(f"{len(targets)} rows of {n_students} test students (fold {args.fold}) with more than {H} rows before them")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"checkpoint": args.checkpoint, "fold": args.fold, "max_history": H, "block": B,
                       "rows": len(targets), "students": n_students, "rules": results}, f, indent=1)


if __name__ == "__main__":
    main()
