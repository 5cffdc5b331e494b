"""PyTorch checks of the AKT model: future leak, right padding, encode+readout == forward,
finite outputs.  Run:  /usr/bin/python3 training/akt/test_akt.py [--checkpoint ckpt.pt]

Without --checkpoint a randomly initialised model (with random, non-zero question
difficulties so the Rasch path is exercised) is tested; with it, the trained weights are.
Prints one line per check and a closing "N passed, N failed" line; exit code 1 on failure.
"""
from __future__ import annotations

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from akt_model import AKT, load_checkpoint  # noqa: E402


def random_model(seed: int = 0, **kw) -> AKT:
    torch.manual_seed(seed)
    cfg = dict(n_skills=12, n_questions=40, d_model=32, n_blocks=2, n_heads=4, d_ff=64, dropout=0.1)
    cfg.update(kw)
    m = AKT(**cfg)
    with torch.no_grad():
        m.difficult_param.weight.uniform_(-1.0, 1.0)
        m.difficult_param.weight[0] = 0.0
        for layer in list(m.knowledge_encoder) + list(m.question_layers) + list(m.retriever_layers):
            layer.attn.gammas.uniform_(-2.0, 2.0)
    return m.eval()


def rand_batch(m: AKT, B: int, L: int, g: torch.Generator):
    s = torch.randint(1, m.n_skills + 1, (B, L), generator=g)
    q = torch.randint(1, m.n_questions + 1, (B, L), generator=g)
    r = torch.randint(0, 2, (B, L), generator=g)
    return s, q, r


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    m = load_checkpoint(args.checkpoint)[0] if args.checkpoint else random_model()
    g = torch.Generator().manual_seed(1)
    results = []

    def check(name: str, ok: bool, detail: str = ""):
        results.append(ok)
        print(f"{'PASS' if ok else 'FAIL'} {name} {detail}")

    with torch.no_grad():
        B, L = 3, 37
        s, q, r = rand_batch(m, B, L, g)
        base, _ = m(s, q, r)
        check("finite outputs", bool(torch.isfinite(base).all()))

        # (ii) future leak: change everything at positions >= t; predictions < t unchanged,
        # and changing the response at t leaves the prediction at t unchanged.
        worst = 0.0
        for t in [0, 1, 5, 17, L - 1]:
            s2, q2, r2 = s.clone(), q.clone(), r.clone()
            s3, q3, r3 = rand_batch(m, B, L, g)
            s2[:, t:], q2[:, t:], r2[:, t:] = s3[:, t:], q3[:, t:], r3[:, t:]
            out, _ = m(s2, q2, r2)
            if t > 0:
                worst = max(worst, float((out[:, :t] - base[:, :t]).abs().max()))
            r4 = r.clone()
            r4[:, t:] = 1 - r4[:, t:]
            out4, _ = m(s, q, r4)
            worst = max(worst, float((out4[:, : t + 1] - base[:, : t + 1]).abs().max()))
        check("future leak: predictions at t ignore rows >= t and the response at t", worst == 0.0, f"max|diff|={worst:.3g}")

        # (iii) right padding never changes earlier predictions (identical values)
        worst = 0.0
        for pad in [1, 7, 50]:
            z = torch.zeros(B, pad, dtype=torch.long)
            out, _ = m(torch.cat([s, z], 1), torch.cat([q, z], 1), torch.cat([r, z], 1))
            worst = max(worst, float((out[:, :L] - base).abs().max()))
            # padding with arbitrary junk ids after the end is also invisible
            sj, qj, rj = rand_batch(m, B, pad, g)
            outj, _ = m(torch.cat([s, sj], 1), torch.cat([q, qj], 1), torch.cat([r, rj], 1))
            worst = max(worst, float((outj[:, :L] - base).abs().max()))
        check("right padding leaves earlier predictions unchanged (fp32)", worst <= 1e-5, f"max|diff|={worst:.3g}")
        # the same in float64 shows the fp32 residue is rounding (summation order changes with L),
        # not leakage
        md = m.double()
        based, _ = md(s, q, r)
        worst = 0.0
        for pad in [1, 7, 50]:
            sj, qj, rj = rand_batch(m, B, pad, g)
            outj, _ = md(torch.cat([s, sj], 1), torch.cat([q, qj], 1), torch.cat([r, rj], 1))
            worst = max(worst, float((outj[:, :L] - based).abs().max()))
        m = md.float()
        check("right padding leaves earlier predictions unchanged (fp64)", worst <= 1e-12, f"max|diff|={worst:.3g}")

        # encode + readout == forward's last row, for every prefix length n (incl. n=0 via a
        # one-row padded history) and for batches with different history lengths.
        worst = 0.0
        for n in [0, 1, 2, 9, L - 1]:
            hs, hq, hr = s[:, :max(n, 1)].clone(), q[:, :max(n, 1)].clone(), r[:, :max(n, 1)].clone()
            if n == 0:
                hs.zero_(), hq.zero_(), hr.zero_()
            cache = m.encode(hs, hq, hr)
            cs, cq = s[:, n:n + 1], q[:, n:n + 1]
            lo = m.readout(cache, torch.full((B,), n, dtype=torch.int32), cs, cq)
            worst = max(worst, float((lo[:, 0] - base[:, n]).abs().max()))
        check("encode+readout equals forward at position n (same-length batch)", worst <= 1e-5, f"max|diff|={worst:.3g}")

        lens = [4, 0, 20]
        Lh = max(lens)
        hs = torch.zeros(B, Lh, dtype=torch.long)
        hq, hr = hs.clone(), hs.clone()
        for b, n in enumerate(lens):
            hs[b, :n], hq[b, :n], hr[b, :n] = s[b, :n], q[b, :n], r[b, :n]
        cache = m.encode(hs, hq, hr)
        C = 5
        cs = torch.randint(1, m.n_skills + 1, (B, C), generator=g)
        cq = torch.randint(0, m.n_questions + 1, (B, C), generator=g)
        cq[:, 0] = 0
        lo = m.readout(cache, torch.tensor(lens, dtype=torch.int32), cs, cq)
        worst = 0.0
        for b, n in enumerate(lens):
            for c in range(C):
                ss = torch.cat([s[b:b + 1, :n], cs[b:b + 1, c:c + 1]], 1)
                qq = torch.cat([q[b:b + 1, :n], cq[b:b + 1, c:c + 1]], 1)
                rr = torch.cat([r[b:b + 1, :n], torch.zeros(1, 1, dtype=torch.long)], 1)
                full, _ = m(ss, qq, rr)
                worst = max(worst, float((full[0, -1] - lo[b, c]).abs()))
        check("encode+readout with padded histories of different lengths and C candidates", worst <= 1e-5, f"max|diff|={worst:.3g}")

        # append: extending an encoding row by row equals encoding the longer history, and a
        # readout after appends equals forward's next row.
        worst_c = worst_k = worst_p = 0.0
        n0 = 5
        cache, ke = m.encode_with_ke(s[:, :n0], q[:, :n0], r[:, :n0])
        for n in range(n0, L - 1):
            row, ke_row = m.append(cache, ke, s[:, n:n + 1], q[:, n:n + 1], r[:, n:n + 1])
            cache, ke = torch.cat([cache, row], 2), torch.cat([ke, ke_row], 2)
            ref_c, ref_k = m.encode_with_ke(s[:, :n + 1], q[:, :n + 1], r[:, :n + 1])
            worst_c = max(worst_c, float((cache - ref_c).abs().max()))
            worst_k = max(worst_k, float((ke - ref_k).abs().max()))
            lo = m.readout(cache, torch.full((B,), n + 1, dtype=torch.int32), s[:, n + 1:n + 2], q[:, n + 1:n + 2])
            worst_p = max(worst_p, float((lo[:, 0] - base[:, n + 1]).abs().max()))
        check("append row by row equals encode of the longer history (cache, knowledge-encoder cache)",
              worst_c <= 1e-5 and worst_k <= 1e-5, f"max|diff|={worst_c:.3g}, {worst_k:.3g}")
        check("readout after appends equals forward at the next position", worst_p <= 1e-5, f"max|diff|={worst_p:.3g}")

        # question id 0 means u_q = 0
        check("u_0 is zero", float(m.difficult_param.weight[0].abs().max()) == 0.0)

    n_pass = sum(results)
    n_fail = len(results) - n_pass
    print(f"{n_pass} passed, {n_fail} failed")
    return 0 if n_fail == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
