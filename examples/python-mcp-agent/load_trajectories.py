"""Loads exported trajectories (npm run cli -- export-trajectories) with Hugging Face `datasets`.

    python examples/python-mcp-agent/load_trajectories.py runs/a.jsonl runs/b.jsonl [--template <tokenizer dir> [--trl]]

Files of different tutors (built-in, LLM, MCP, HTTP) load as one table and concatenate
(educlaw-trajectory/3: one type per column). The script prints one JSON object: rows per tutor,
per split, the groups on each side of the split, and that no group crosses it. With --template
(a local tokenizer folder whose chat template takes tools, and `transformers` installed) it renders
every conversation with the tools through `apply_chat_template`, the step TRL's SFTTrainer takes for
conversational data with tools; with --trl, through TRL's own helper (`trl.data_utils.apply_chat_template`),
which its trainers apply: `messages` rows (SFT) and `--form prompt-completion` rows (`prompt`,
`completion`, `label`: GRPO, KTO) alike.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from datasets import concatenate_datasets, load_dataset


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("files", nargs="+")
    p.add_argument("--template", help="a local tokenizer folder (transformers) to render conversations with tools")
    p.add_argument("--trl", action="store_true", help="render with TRL's apply_chat_template (needs trl)")
    o = p.parse_args(argv)
    # All files at once, and each alone then concatenated: both must work.
    together = load_dataset("json", data_files=o.files, split="train")
    parts = [load_dataset("json", data_files=f, split="train") for f in o.files]
    concatenated = concatenate_datasets(parts)
    assert len(together) == len(concatenated), (len(together), len(concatenated))
    groups: dict[str, set[str]] = {}
    for g, s in zip(together["group"], together["split"]):
        groups.setdefault(g, set()).add(s)
    out = {
        "rows": len(together),
        "columns": sorted(together.column_names),
        "tutors": dict(Counter(t["label"] for t in together["tutor"])),
        "tutor_names": sorted({t["name"] for t in together["tutor"]}),
        "splits": dict(Counter(together["split"])),
        "samples": len(set(together["sample_id"])),
        "groups_crossing_splits": sorted(g for g, s in groups.items() if len(s) > 1),
        "formats": sorted(set(together["format"])),
    }
    if o.template:
        from transformers import AutoTokenizer

        tok = AutoTokenizer.from_pretrained(o.template)
        if o.trl:
            from trl.data_utils import apply_chat_template as trl_apply_chat_template, is_conversational

        def plain(messages: list[dict]) -> list[dict]:
            out_msgs = [{k: v for k, v in m.items() if v is not None} for m in messages]
            for m in out_msgs:
                for c in m.get("tool_calls") or []:
                    # Chat templates take the arguments as an object; the export keeps the text as written.
                    try:
                        c["function"]["arguments"] = json.loads(c["function"]["arguments"])
                    except ValueError:
                        c["function"]["arguments"] = {"_unparsed": c["function"]["arguments"]}
            return out_msgs

        rendered = 0
        for row in together:
            example = {k: plain(row[k]) for k in ("messages", "prompt", "completion") if row.get(k) is not None}
            if row.get("label") is not None:
                example["label"] = row["label"]
            if o.trl:
                assert is_conversational(example), sorted(example)
                texts = trl_apply_chat_template(example, tok, tools=row["tools"])
                ok = all(isinstance(texts.get(k), str) and texts[k] for k in texts if k in ("text", "prompt", "completion"))
            else:
                ok = bool(tok.apply_chat_template(example["messages"], tools=row["tools"], tokenize=False))
            rendered += 1 if ok else 0
        out["rendered"] = rendered
        out["renderer"] = "trl" if o.trl else "transformers"
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
