"""Fit Platt calibration (P = sigmoid(a * logit + b)) of a trained AKT checkpoint on the
validation file of its fold, and write a calibrated checkpoint (a, b live in the model buffers
logit_scale / logit_bias, so every exported graph carries them).

  /usr/bin/python3 training/akt/calibrate.py --checkpoint training/akt/runs/a09_d128_f1/checkpoint.pt \
      --data /work/shared/data/assist2009_pid --fold 1 --out training/akt/checkpoints/assist2009_pid_fold1.pt

The fit uses the validation file only (the same file early stopping used); the test file is
untouched.  AUC does not change (monotone map); accuracy at 0.5, Brier and ECE do.
"""
from __future__ import annotations

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kt_data  # noqa: E402
from akt_model import load_checkpoint  # noqa: E402
from train import predict  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--fold", type=int, required=True)
    ap.add_argument("--seqlen", type=int, default=200)
    ap.add_argument("--out", required=True)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    m, ck = load_checkpoint(args.checkpoint)
    with torch.no_grad():
        m.logit_scale.fill_(1.0)
        m.logit_bias.fill_(0.0)
    ds = kt_data.load_dataset(args.data, args.fold, m.n_skills, m.n_questions)
    p, y, _ = predict(m, kt_data.chunk(ds.valid, args.seqlen))
    logit = torch.logit(torch.tensor(p, dtype=torch.float64).clamp(1e-7, 1 - 1e-7))
    yt = torch.tensor(y, dtype=torch.float64)
    a = torch.ones(1, dtype=torch.float64, requires_grad=True)
    b = torch.zeros(1, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([a, b], max_iter=200, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = torch.nn.functional.binary_cross_entropy_with_logits(a * logit + b, yt)
        loss.backward()
        return loss

    opt.step(closure)
    with torch.no_grad():
        m.logit_scale.fill_(float(a))
        m.logit_bias.fill_(float(b))
    out = dict(ck)
    out["state_dict"] = m.state_dict()
    out["calibration"] = {"method": "Platt on the validation file", "a": float(a), "b": float(b),
                          "fold": args.fold, "n_valid_rows": int(len(y)), "source_checkpoint": args.checkpoint}
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    torch.save(out, args.out)
    print(f"calibration a={float(a):.4f} b={float(b):.4f} (fit on {len(y)} validation rows) -> {args.out}")


if __name__ == "__main__":
    main()
