"""Measure training seconds per epoch for a few AKT sizes on this machine.

  /usr/bin/python3 training/akt/bench.py --data /work/shared/data/assist2009_pid --fold 1 \
      --configs 256:8:1:1024 128:8:1:512 64:4:1:256 --steps 40

Each config is d_model:heads:blocks:d_ff.  A random sample of --steps training batches (same
bucketing as train.py) is timed after 3 warm-up steps; the epoch estimate is the mean step
time times the number of batches in an epoch, plus a timed validation pass.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kt_data  # noqa: E402
from akt_model import AKT  # noqa: E402
from train import make_batches, evaluate  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--fold", type=int, default=1)
    ap.add_argument("--configs", nargs="+", default=["256:8:1:1024", "128:8:1:512", "64:4:1:256"])
    ap.add_argument("--batch", type=int, default=24)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--seqlen", type=int, default=200)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--no-bucket", action="store_true")
    ap.add_argument("--skip-valid", action="store_true")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.set_flush_denormal(True)
    ds = kt_data.load_dataset(args.data, args.fold)
    tr = kt_data.chunk(ds.train, args.seqlen)
    va = kt_data.chunk(ds.valid, args.seqlen)
    res = []
    for cfg in args.configs:
        d, h, nb, dff = (int(x) for x in cfg.split(":"))
        torch.manual_seed(0)
        m = AKT(ds.n_skills, ds.n_questions, d_model=d, n_heads=h, n_blocks=nb, d_ff=dff)
        opt = torch.optim.Adam(m.parameters(), lr=1e-4)
        batches = make_batches(tr, args.batch, random.Random(0), not args.no_bucket)
        sample = random.Random(1).sample(batches, min(len(batches), args.steps + 3))
        m.train()
        times = []
        for i, b in enumerate(sample):
            s, q, r, mk = (torch.from_numpy(x) for x in kt_data.pad_batch([tr[j] for j in b], args.seqlen if args.no_bucket else None))
            t = time.time()
            opt.zero_grad()
            loss, _ = m.loss(s, q, r, mk)
            loss.backward()
            opt.step()
            if i >= 3:
                times.append(time.time() - t)
        step = sum(times) / len(times)
        tv = 0.0
        if not args.skip_valid:
            t = time.time()
            evaluate(m, va)
            tv = time.time() - t
        row = {"config": cfg, "params": sum(p.numel() for p in m.parameters()), "batches_per_epoch": len(batches),
               "sec_per_step": step, "est_train_sec_per_epoch": step * len(batches), "valid_sec": tv,
               "bucket": not args.no_bucket, "batch": args.batch}
        print(json.dumps(row), flush=True)
        res.append(row)


if __name__ == "__main__":
    main()
