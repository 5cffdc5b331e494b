"""Train AKT-Rasch on any AKT/pyKT-format data set and evaluate it the way AKT's reference
code (arghosh/AKT run.py) does: every student sequence is cut into consecutive pieces of
--seqlen rows (each piece starts with an empty history), every real KC-level row of every
piece is predicted, and AUC / accuracy (threshold 0.5) are computed over all those rows.
Early stopping picks the epoch with the best validation AUC; the test fold is evaluated once,
with that checkpoint.

Example (ASSISTments 2009, fold 1):
  /usr/bin/python3 training/akt/train.py --data /work/shared/data/assist2009_pid --fold 1 \
      --out runs/a09_f1

Writes OUT/checkpoint.pt (best validation epoch), OUT/metrics.json and OUT/train.log.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kt_data  # noqa: E402
import metrics  # noqa: E402
from akt_model import AKT  # noqa: E402


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="dataset directory (AKT fold files or sequences.csv[.gz])")
    ap.add_argument("--fold", type=int, default=1)
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--n-skills", type=int, default=None, help="default: largest skill id in the data")
    ap.add_argument("--n-questions", type=int, default=None, help="default: largest question id in the data")
    ap.add_argument("--d-model", type=int, default=256)
    ap.add_argument("--heads", type=int, default=8)
    ap.add_argument("--blocks", type=int, default=1)
    ap.add_argument("--d-ff", type=int, default=1024)
    ap.add_argument("--final-fc", type=int, default=512)
    ap.add_argument("--final-fc2", type=int, default=256)
    ap.add_argument("--dropout", type=float, default=0.05)
    ap.add_argument("--l2", type=float, default=1e-5, help="Rasch penalty l2 * sum(u_q^2)")
    ap.add_argument("--lr", type=float, default=1e-5)
    ap.add_argument("--batch", type=int, default=24)
    ap.add_argument("--eval-batch", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=300)
    ap.add_argument("--seqlen", type=int, default=200)
    ap.add_argument("--patience", type=int, default=40, help="stop after this many epochs without a better validation AUC")
    ap.add_argument("--seed", type=int, default=224)
    ap.add_argument("--max-minutes", type=float, default=None, help="wall-clock budget for training (checked every batch)")
    ap.add_argument("--max-grad-norm", type=float, default=-1.0)
    ap.add_argument("--plateau-halve", type=int, default=0,
                    help="halve the learning rate after this many epochs without a better validation AUC (0 = constant lr, as AKT)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--device", default="cpu", help="torch device, e.g. cuda or cuda:0 (default cpu; checkpoints load on the CPU either way)")
    ap.add_argument("--no-bucket", action="store_true", help="pad every batch to --seqlen (AKT's reference); default pads to the batch maximum after grouping pieces by length")
    ap.add_argument("--loss-reduction", choices=["sum", "mean"], default="sum", help="AKT sums the BCE over rows")
    ap.add_argument("--init", default=None, help="start from this checkpoint's weights")
    return ap.parse_args(argv)


def make_batches(pieces, batch, rng: random.Random, bucket: bool):
    idx = list(range(len(pieces)))
    rng.shuffle(idx)
    if not bucket:
        return [idx[i:i + batch] for i in range(0, len(idx), batch)]
    out = []
    mega = batch * 50
    for a in range(0, len(idx), mega):
        grp = sorted(idx[a:a + mega], key=lambda i: len(pieces[i][0]))
        out += [grp[i:i + batch] for i in range(0, len(grp), batch)]
    rng.shuffle(out)
    return out


@torch.no_grad()
def predict(model: AKT, pieces, batch: int = 64, fixed_len=None):
    """Probabilities and labels for every real row of every piece (and continuation flags)."""
    model.eval()
    order = sorted(range(len(pieces)), key=lambda i: len(pieces[i][0]))
    ps, ys, cont = [], [], []
    dev = next(model.parameters()).device
    for a in range(0, len(order), batch):
        chunk = [pieces[i] for i in order[a:a + batch]]
        s, q, r, m = kt_data.pad_batch(chunk, fixed_len)
        logits, _ = model(*(torch.from_numpy(x).to(dev) for x in (s, q, r)))
        p = torch.sigmoid(logits).cpu().numpy()
        sel = m > 0
        ps.append(p[sel])
        ys.append(r[sel])
        cont.append(kt_data.continuation_mask(s, q, r)[sel])
    return np.concatenate(ps), np.concatenate(ys), np.concatenate(cont)


def evaluate(model, pieces, batch=64):
    p, y, c = predict(model, pieces, batch)
    out = metrics.summary(y, p)
    out["auc_first_kc_row_only"] = metrics.auc(y[~c], p[~c])
    out["n_first_kc_row_only"] = int((~c).sum())
    return out


def main(argv=None) -> int:
    args = parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    torch.set_num_threads(args.threads)
    torch.set_flush_denormal(True)
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    log_f = open(os.path.join(args.out, "train.log"), "a")

    def log(msg: str):
        line = f"[{time.strftime('%H:%M:%S')}] {msg}"
        print(line, flush=True)
        log_f.write(line + "\n")
        log_f.flush()

    t0 = time.time()
    ds = kt_data.load_dataset(args.data, args.fold, args.n_skills, args.n_questions)
    tr, va, te = (kt_data.chunk(x, args.seqlen) for x in (ds.train, ds.valid, ds.test))
    log(f"data {args.data} fold {args.fold} layout {ds.layout}: n_skills={ds.n_skills} n_questions={ds.n_questions} "
        f"students train/valid/test={len(ds.train)}/{len(ds.valid)}/{len(ds.test)} pieces={len(tr)}/{len(va)}/{len(te)} "
        f"rows={sum(len(p[0]) for p in tr)}/{sum(len(p[0]) for p in va)}/{sum(len(p[0]) for p in te)} ({time.time() - t0:.1f}s)")

    model = AKT(ds.n_skills, ds.n_questions, d_model=args.d_model, n_blocks=args.blocks, n_heads=args.heads,
                d_ff=args.d_ff, dropout=args.dropout, final_fc=args.final_fc, final_fc2=args.final_fc2, l2=args.l2)
    if args.init:
        model.load_state_dict(AKT.from_checkpoint(torch.load(args.init, map_location="cpu")).state_dict())
        with torch.no_grad():  # train uncalibrated
            model.logit_scale.fill_(1.0)
            model.logit_bias.fill_(0.0)
    device = torch.device(args.device)
    model.to(device)
    n_params = sum(p.numel() for p in model.parameters())
    log(f"model {json.dumps(model.config())} params={n_params}")
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, betas=(0.9, 0.999), eps=1e-8)
    rng = random.Random(args.seed)
    ckpt_path = os.path.join(args.out, "checkpoint.pt")
    history = []
    best = {"auc": -1.0, "epoch": 0}
    deadline = t0 + 60 * args.max_minutes if args.max_minutes else None
    stopped = "epochs"
    train_seconds = 0.0
    for epoch in range(1, args.epochs + 1):
        model.train()
        te0 = time.time()
        tot_loss, tot_rows, ps, ys = 0.0, 0, [], []
        batches = make_batches(tr, args.batch, rng, not args.no_bucket)
        out_of_time = False
        for bi, b in enumerate(batches):
            s_np, q_np, r_np, m_np = kt_data.pad_batch([tr[i] for i in b], args.seqlen if args.no_bucket else None)
            s, q, r, m = (torch.from_numpy(x).to(device) for x in (s_np, q_np, r_np, m_np))
            opt.zero_grad()
            loss, logits = model.loss(s, q, r, m)
            rows = float(m.sum())
            (loss / rows if args.loss_reduction == "mean" else loss).backward()
            if args.max_grad_norm > 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
            opt.step()
            tot_loss += float(loss)
            tot_rows += rows
            sel = m_np > 0
            ps.append(torch.sigmoid(logits.detach()).cpu().numpy()[sel])
            ys.append(r_np[sel])
            if deadline and time.time() > deadline:
                out_of_time = True
                break
        ep_train_s = time.time() - te0
        train_seconds += ep_train_s
        tr_p, tr_y = np.concatenate(ps), np.concatenate(ys)
        tv0 = time.time()
        v = evaluate(model, va, args.eval_batch)
        rec = {"epoch": epoch, "train_loss": tot_loss / max(tot_rows, 1), "train_auc": metrics.auc(tr_y, tr_p),
               "valid_auc": v["auc"], "valid_acc": v["acc"], "valid_logloss": v["logloss"],
               "train_seconds": ep_train_s, "valid_seconds": time.time() - tv0, "batches": bi + 1,
               "partial_epoch": out_of_time}
        history.append(rec)
        improved = v["auc"] > best["auc"]
        if improved:
            best = {"auc": v["auc"], "epoch": epoch}
            torch.save({"config": model.config(), "state_dict": model.state_dict(), "epoch": epoch,
                        "valid_auc": v["auc"], "args": vars(args), "id_shift": {"skill": ds.skill_shift, "question": ds.question_shift}},
                       ckpt_path)
        log(f"epoch {epoch} train_loss {rec['train_loss']:.4f} train_auc {rec['train_auc']:.4f} valid_auc {v['auc']:.4f} "
            f"valid_acc {v['acc']:.4f} ({ep_train_s:.0f}s train, {rec['valid_seconds']:.0f}s valid){' *' if improved else ''}")
        if args.plateau_halve > 0 and not improved and (epoch - best["epoch"]) % args.plateau_halve == 0:
            for grp in opt.param_groups:
                grp["lr"] *= 0.5
            log(f"lr -> {opt.param_groups[0]['lr']:.3g}")
        rec["lr"] = opt.param_groups[0]["lr"]
        if out_of_time:
            stopped = "max_minutes"
            break
        if epoch - best["epoch"] >= args.patience:
            stopped = "patience"
            break

    model.load_state_dict(AKT.from_checkpoint(torch.load(ckpt_path, map_location="cpu")).state_dict())
    v = evaluate(model, va, args.eval_batch)
    t = evaluate(model, te, args.eval_batch)
    log(f"best epoch {best['epoch']}: valid auc {v['auc']:.4f} acc {v['acc']:.4f} | TEST auc {t['auc']:.4f} acc {t['acc']:.4f} "
        f"(first-KC-row-only auc {t['auc_first_kc_row_only']:.4f}) stopped by {stopped}")
    out = {"data": os.path.abspath(args.data), "fold": args.fold, "layout": ds.layout, "files": ds.files,
           "n_skills": ds.n_skills, "n_questions": ds.n_questions, "id_shift": {"skill": ds.skill_shift, "question": ds.question_shift},
           "args": vars(args), "model": model.config(), "n_params": n_params,
           "best_epoch": best["epoch"], "epochs_run": len(history), "stopped_by": stopped,
           "train_seconds_total": train_seconds, "wall_seconds_total": time.time() - t0,
           "valid": v, "test": t, "history": history,
           "protocol": "AKT run.py: sequences cut into --seqlen pieces, all real KC-level rows, AUC + accuracy at 0.5",
           "torch": torch.__version__, "threads": args.threads}
    with open(os.path.join(args.out, "metrics.json"), "w") as f:
        json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
