"""Evaluate a checkpoint on the validation and test files of a fold with the AKT protocol
(same as train.py), plus calibration (Brier, 10-bin ECE) and a leak-free variant.

  /usr/bin/python3 training/akt/evaluate.py --checkpoint training/akt/checkpoints/assist2009_pid_fold1.pt \
      --data /work/shared/data/assist2009_pid --fold 1 [--json out.json]

"first_kc_row_only": the same predictions with the 2nd, 3rd, ... KC rows of a multi-skill
answer left out.  Those rows repeat the previous row's question and response, so in the AKT
protocol the model sees the answer it is asked to predict (the previous row is in its history);
leaving them out gives a leak-free figure.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kt_data  # noqa: E402
import metrics  # noqa: E402
from akt_model import load_checkpoint  # noqa: E402
from train import predict  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--fold", type=int, required=True)
    ap.add_argument("--seqlen", type=int, default=200)
    ap.add_argument("--json", default=None)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    m, ck = load_checkpoint(args.checkpoint)
    ds = kt_data.load_dataset(args.data, args.fold, m.n_skills, m.n_questions)
    out = {"checkpoint": args.checkpoint, "epoch": ck.get("epoch"), "fold": args.fold}
    for name, studs in (("valid", ds.valid), ("test", ds.test)):
        p, y, c = predict(m, kt_data.chunk(studs, args.seqlen))
        r = metrics.summary(y, p)
        r.update(metrics.calibration(y, p))
        r["first_kc_row_only"] = metrics.summary(y[~c], p[~c])
        out[name] = r
        print(f"{name}: auc {r['auc']:.4f} acc {r['acc']:.4f} logloss {r['logloss']:.4f} brier {r['brier']:.4f} "
              f"ece {r['ece_10bin']:.4f} n={r['n']} | first-KC-row only: auc {r['first_kc_row_only']['auc']:.4f} "
              f"acc {r['first_kc_row_only']['acc']:.4f} n={r['first_kc_row_only']['n']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
