"""Time one full-belief readout in PyTorch on this machine, for the ratio in `npm run bench:kt`:
incremental (encode + readout of every skill) and naive (one full forward per skill; and the
same work as one batched forward), at a history of --history rows.

  /usr/bin/python3 training/akt/bench_readout.py --checkpoint CKPT --history 200 [--threads 1]

Prints one JSON line.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from akt_model import load_checkpoint  # noqa: E402


def median(xs):
    s = sorted(xs)
    return s[len(s) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--history", type=int, default=200)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--naive-reps", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.set_flush_denormal(True)
    m, _ = load_checkpoint(args.checkpoint)
    K, L = m.n_skills, args.history
    g = torch.Generator().manual_seed(0)
    s = torch.randint(1, K + 1, (1, L), generator=g).to(torch.int32)
    q = torch.randint(1, m.n_questions + 1, (1, L), generator=g).to(torch.int32)
    r = torch.randint(0, 2, (1, L), generator=g).to(torch.int32)
    cs = torch.arange(1, K + 1, dtype=torch.int32).unsqueeze(0)
    cq = torch.zeros(1, K, dtype=torch.int32)
    hl = torch.tensor([L], dtype=torch.int32)
    with torch.no_grad():
        m.readout(m.encode(s, q, r), hl, cs, cq)
        inc = []
        for _ in range(args.reps):
            t = time.perf_counter()
            m.readout(m.encode(s, q, r), hl, cs, cq)
            inc.append((time.perf_counter() - t) * 1000)
        naive = []
        for _ in range(args.naive_reps):
            t = time.perf_counter()
            for k in range(1, K + 1):
                s2 = torch.cat([s, torch.tensor([[k]], dtype=torch.int32)], 1)
                q2 = torch.cat([q, torch.zeros(1, 1, dtype=torch.int32)], 1)
                r2 = torch.cat([r, torch.zeros(1, 1, dtype=torch.int32)], 1)
                m(s2, q2, r2)
            naive.append((time.perf_counter() - t) * 1000)
        S = torch.cat([s.repeat(K, 1), cs.t()], 1)
        Q = torch.cat([q.repeat(K, 1), torch.zeros(K, 1, dtype=torch.int32)], 1)
        R = torch.cat([r.repeat(K, 1), torch.zeros(K, 1, dtype=torch.int32)], 1)
        batched = []
        for _ in range(args.naive_reps):
            t = time.perf_counter()
            m(S, Q, R)
            batched.append((time.perf_counter() - t) * 1000)
    print(json.dumps({"runtime": f"pytorch {torch.__version__} ({args.threads} thread)", "history": L, "skills": K,
                      "incrementalMs": median(inc), "naiveMs": median(naive), "naiveBatchedMs": median(batched)}))


if __name__ == "__main__":
    main()
