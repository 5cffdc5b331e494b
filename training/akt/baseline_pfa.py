"""PFA-style logistic-regression baseline on the same split as train.py.

  /usr/bin/python3 training/akt/baseline_pfa.py --data /work/shared/data/assist2009_pid --fold 1 \
      [--out training/akt/runs/pfa_f1.json]

Each KC-level row t of a student with skill k gets
    logit = b + beta_k + gamma_k * S_k(t) + rho_k * F_k(t)
where S_k(t) / F_k(t) count the student's earlier rows of skill k answered correctly /
incorrectly (over the student's whole sequence, as PFA does; Pavlik, Cen & Koedinger 2009).
Fitted on the training file by full-batch L-BFGS on the mean log-loss (+ a tiny L2), evaluated
on every KC-level row of the validation and test files (the same rows train.py scores).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kt_data  # noqa: E402
import metrics  # noqa: E402


def features(students, n_skills):
    ks, ss, fs, ys = [], [], [], []
    for st in students:
        S = np.zeros(n_skills + 1, np.int64)
        F = np.zeros(n_skills + 1, np.int64)
        for k, r in zip(st.skills.tolist(), st.responses.tolist()):
            ks.append(k)
            ss.append(S[k])
            fs.append(F[k])
            ys.append(r)
            if r:
                S[k] += 1
            else:
                F[k] += 1
    return (torch.tensor(ks), torch.tensor(ss, dtype=torch.float64), torch.tensor(fs, dtype=torch.float64),
            torch.tensor(ys, dtype=torch.float64))


class PFA(torch.nn.Module):
    def __init__(self, n_skills):
        super().__init__()
        self.b = torch.nn.Parameter(torch.zeros(1, dtype=torch.float64))
        self.beta = torch.nn.Parameter(torch.zeros(n_skills + 1, dtype=torch.float64))
        self.gamma = torch.nn.Parameter(torch.zeros(n_skills + 1, dtype=torch.float64))
        self.rho = torch.nn.Parameter(torch.zeros(n_skills + 1, dtype=torch.float64))

    def forward(self, k, s, f):
        return self.b + self.beta[k] + self.gamma[k] * s + self.rho[k] * f


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--fold", type=int, default=1)
    ap.add_argument("--l2", type=float, default=1e-6)
    ap.add_argument("--iters", type=int, default=300)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    torch.set_num_threads(2)
    t0 = time.time()
    ds = kt_data.load_dataset(args.data, args.fold)
    tr, va, te = (features(x, ds.n_skills) for x in (ds.train, ds.valid, ds.test))
    m = PFA(ds.n_skills)
    opt = torch.optim.LBFGS(m.parameters(), lr=1, max_iter=args.iters, history_size=50, line_search_fn="strong_wolfe",
                            tolerance_grad=1e-10, tolerance_change=1e-12)

    def closure():
        opt.zero_grad()
        lo = m(*tr[:3])
        loss = torch.nn.functional.binary_cross_entropy_with_logits(lo, tr[3]) + args.l2 * sum((p ** 2).sum() for p in m.parameters())
        loss.backward()
        return loss

    opt.step(closure)
    out = {"model": "PFA (skill intercept + per-skill prior correct / incorrect counts), logistic regression",
           "data": os.path.abspath(args.data), "fold": args.fold, "l2": args.l2}
    with torch.no_grad():
        for name, d in (("train", tr), ("valid", va), ("test", te)):
            p = torch.sigmoid(m(*d[:3])).numpy()
            out[name] = metrics.summary(d[3].numpy(), p)
    out["seconds"] = time.time() - t0
    print(f"PFA fold {args.fold}: valid auc {out['valid']['auc']:.4f} acc {out['valid']['acc']:.4f} | "
          f"TEST auc {out['test']['auc']:.4f} acc {out['test']['acc']:.4f} (n={out['test']['n']})")
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
