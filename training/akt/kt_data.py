"""Readers for knowledge-tracing sequence data in the AKT and pyKT layouts.

Two on-disk layouts are understood, found under a dataset directory given by the user:

1. AKT fold files (the release of arghosh/AKT), optionally gzipped, either directly in the
   directory or in an ``akt_folds/`` sub-directory:
   ``*_train{k}.csv[.gz]``, ``*_valid{k}.csv[.gz]``, ``*_test{k}.csv[.gz]``.
   Each student is 4 lines (``uid,orig_id`` / question ids / skill ids / responses) or,
   for data sets without question ids, 3 lines (``uid,orig_id`` / skill ids / responses).
   Ids are 1-based; 0 is never used.

2. A ``sequences.csv[.gz]`` file with a header containing at least ``fold``, ``concepts`` and
   ``responses`` (optionally ``questions``, ``uid``, ``orig_user_id``, ``seq_len``; other
   columns such as pyKT's ``selectmasks`` are ignored).  Lists are comma separated.  Entries equal to -1 are padding and are
   dropped.  If a ``test_sequences.csv[.gz]`` file sits next to it (the pyKT layout), the test
   set is that file and the validation set of fold k is ``fold == k``; otherwise (the layout
   of /work/shared/data/*/sequences.csv.gz) the test set of fold k is ``fold == k``, the
   validation set is ``fold == (k mod K) + 1`` and the training set is every other row
   (including non-numeric folds such as ``train_only``), which mirrors AKT's own split.

Ids: the model reserves 0 for padding / "no question".  If the data contains a skill id 0
(or a question id 0), the ids are 0-based (pyKT) and are shifted by +1.  The shift is recorded
in the returned ``DataSet.id_shift`` so it can be written to meta.json.
"""
from __future__ import annotations

import csv
import glob
import gzip
import io
import os
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np


@dataclass
class Student:
    uid: str
    questions: np.ndarray  # int64 [T], 0 = unknown question (u_q = 0)
    skills: np.ndarray  # int64 [T], 1-based
    responses: np.ndarray  # int64 [T], 0/1


@dataclass
class DataSet:
    train: List[Student]
    valid: List[Student]
    test: List[Student]
    n_skills: int
    n_questions: int
    skill_shift: int = 0
    question_shift: int = 0
    layout: str = ""
    files: Dict[str, str] = field(default_factory=dict)


def _open_text(path: str) -> io.TextIOBase:
    if path.endswith(".gz"):
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8")
    return open(path, "r", encoding="utf-8")


def _ints(line: str) -> List[int]:
    parts = [p for p in line.strip().split(",") if p.strip() != ""]
    return [int(float(p)) for p in parts]


def read_akt_file(path: str, lines_per_student: str = "auto") -> List[Student]:
    """Read one AKT fold file (3 or 4 lines per student)."""
    with _open_text(path) as f:
        lines = [ln.rstrip("\n\r") for ln in f]
    while lines and lines[-1].strip() == "":
        lines.pop()
    lps = _detect_lines_per_student(lines) if lines_per_student == "auto" else int(lines_per_student)
    if len(lines) % lps != 0:
        raise ValueError(f"{path}: {len(lines)} lines is not a multiple of {lps}")
    out: List[Student] = []
    for i in range(0, len(lines), lps):
        uid = lines[i].strip().split(",")[0]
        if lps == 4:
            q, s, r = _ints(lines[i + 1]), _ints(lines[i + 2]), _ints(lines[i + 3])
        else:
            s, r = _ints(lines[i + 1]), _ints(lines[i + 2])
            q = [0] * len(s)
        if not (len(q) == len(s) == len(r)):
            raise ValueError(f"{path}: student {uid} has unequal line lengths")
        out.append(Student(uid, np.asarray(q, np.int64), np.asarray(s, np.int64), np.asarray(r, np.int64)))
    return out


def _detect_lines_per_student(lines: Sequence[str]) -> int:
    def ok(lps: int) -> bool:
        if len(lines) % lps != 0:
            return False
        for i in range(0, min(len(lines), lps * 50), lps):
            body = [_ints(lines[i + j]) for j in range(1, lps)]
            if len({len(b) for b in body}) != 1:
                return False
            if any(v not in (0, 1) for v in body[-1]):
                return False
            if len(lines[i].split(",")) > 3:  # header line is "uid,orig_id"
                return False
        return True

    if ok(4):
        return 4
    if ok(3):
        return 3
    raise ValueError("cannot tell whether the file has 3 or 4 lines per student")


def _find(dirs: Sequence[str], pattern: str) -> Optional[str]:
    rx = re.compile(pattern)
    for d in dirs:
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if rx.search(name):
                return os.path.join(d, name)
    return None


def read_sequences_csv(path: str) -> List[Tuple[str, Student]]:
    """Read a sequences.csv[.gz] file; returns (fold, Student) pairs with padding (-1) removed."""
    rows: List[Tuple[str, Student]] = []
    with _open_text(path) as f:
        reader = csv.DictReader(f)
        for row in reader:
            skills = _ints(row["concepts"])
            resp = _ints(row["responses"])
            qs_raw = row.get("questions", "") or ""
            qs = _ints(qs_raw) if qs_raw.strip() not in ("", "NA") else [0] * len(skills)
            keep = [i for i in range(len(skills)) if skills[i] != -1 and resp[i] != -1]
            q = np.asarray([qs[i] for i in keep], np.int64)
            s = np.asarray([skills[i] for i in keep], np.int64)
            r = np.asarray([resp[i] for i in keep], np.int64)
            if len(s) == 0:
                continue
            uid = row.get("uid", str(len(rows)))
            rows.append((str(row.get("fold", "")).strip(), Student(uid, q, s, r)))
    return rows


def load_dataset(data_dir: str, fold: int, n_skills: Optional[int] = None, n_questions: Optional[int] = None,
                 lines_per_student: str = "auto") -> DataSet:
    """Load train/valid/test for ``fold`` (1-based for AKT files and sequences.csv, as in the file names)."""
    dirs = [data_dir, os.path.join(data_dir, "akt_folds")]
    tr = _find(dirs, rf"(^|_)train{fold}\.csv(\.gz)?$")
    va = _find(dirs, rf"(^|_)valid{fold}\.csv(\.gz)?$")
    te = _find(dirs, rf"(^|_)test{fold}\.csv(\.gz)?$")
    files: Dict[str, str] = {}
    if tr and va and te:
        layout = "akt_folds"
        train, valid, test = (read_akt_file(p, lines_per_student) for p in (tr, va, te))
        files = {"train": tr, "valid": va, "test": te}
    else:
        seq = _find([data_dir], r"^(train_valid_)?sequences\.csv(\.gz)?$")
        if seq is None:
            raise FileNotFoundError(f"no AKT fold files for fold {fold} and no sequences.csv[.gz] in {data_dir}")
        rows = read_sequences_csv(seq)
        test_file = _find([data_dir], r"^test_sequences\.csv(\.gz)?$")
        numeric = sorted({int(f) for f, _ in rows if re.fullmatch(r"-?\d+", f)})
        if fold not in numeric:
            raise ValueError(f"fold {fold} not in {numeric}")
        if test_file:
            layout = "pykt_sequences"
            valid = [s for f, s in rows if f == str(fold)]
            train = [s for f, s in rows if f != str(fold)]
            test = [s for _, s in read_sequences_csv(test_file)]
            files = {"sequences": seq, "test": test_file}
        else:
            layout = "sequences_csv"
            k = len(numeric)
            vfold = numeric[(numeric.index(fold) + 1) % k]
            test = [s for f, s in rows if f == str(fold)]
            valid = [s for f, s in rows if f == str(vfold)]
            train = [s for f, s in rows if f not in (str(fold), str(vfold))]
            files = {"sequences": seq, "test_fold": str(fold), "valid_fold": str(vfold)}

    allst = train + valid + test
    min_s = min(int(s.skills.min()) for s in allst)
    skill_shift = 1 if min_s == 0 else 0
    has_q = any(int(s.questions.max()) > 0 for s in allst)
    # pyKT question ids are 0-based; AKT's are 1-based.  In a 0-based file, 0 is a real question.
    q_shift = 1 if (has_q and layout == "pykt_sequences") else 0
    if skill_shift or q_shift:
        for s in allst:
            s.skills = s.skills + skill_shift
            if has_q:
                s.questions = s.questions + q_shift
    max_s = max(int(s.skills.max()) for s in allst)
    max_q = max(int(s.questions.max()) for s in allst)
    ns = n_skills if n_skills is not None else max_s
    nq = n_questions if n_questions is not None else max_q
    if max_s > ns:
        raise ValueError(f"skill id {max_s} > --n-skills {ns}")
    if max_q > nq:
        raise ValueError(f"question id {max_q} > --n-questions {nq}")
    return DataSet(train, valid, test, ns, nq, skill_shift, q_shift, layout, files)


def chunk(students: Sequence[Student], seqlen: int) -> List[Tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Split every student sequence into consecutive non-overlapping pieces of at most ``seqlen``
    rows, exactly as AKT's load_data.py does (each piece starts with an empty history)."""
    out = []
    for st in students:
        T = len(st.skills)
        for a in range(0, T, seqlen):
            b = min(T, a + seqlen)
            out.append((st.skills[a:b], st.questions[a:b], st.responses[a:b]))
    return out


def pad_batch(pieces: Sequence[Tuple[np.ndarray, np.ndarray, np.ndarray]], length: Optional[int] = None):
    """Right-pad pieces to a common length.  Returns int64 arrays skills, questions, responses
    [B, L] (padding = 0) and a float mask [B, L] (1 = real row)."""
    L = length or max(len(p[0]) for p in pieces)
    B = len(pieces)
    s = np.zeros((B, L), np.int64)
    q = np.zeros((B, L), np.int64)
    r = np.zeros((B, L), np.int64)
    m = np.zeros((B, L), np.float32)
    for i, (ps, pq, pr) in enumerate(pieces):
        n = len(ps)
        s[i, :n], q[i, :n], r[i, :n], m[i, :n] = ps, pq, pr, 1.0
    return s, q, r, m


def continuation_mask(skills: np.ndarray, questions: np.ndarray, responses: np.ndarray) -> np.ndarray:
    """True for rows that repeat the previous row's question and response with another skill,
    i.e. the 2nd, 3rd, ... KC rows of a multi-skill question expanded into consecutive rows."""
    cont = np.zeros(skills.shape, bool)
    cont[..., 1:] = ((questions[..., 1:] == questions[..., :-1]) & (questions[..., 1:] > 0)
                     & (responses[..., 1:] == responses[..., :-1]) & (skills[..., 1:] != skills[..., :-1]))
    return cont
