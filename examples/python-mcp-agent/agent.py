"""An EduClaw Lab tutor in Python, on the official MCP SDK (`pip install mcp`).

It connects to `npm run cli -- serve-mcp` (starting it over stdio, or at a Streamable HTTP URL),
then loops: wait_for_event -> tool calls -> end_turn, until the server answers "done". The policy
is deliberately simple (a hint on a help request, a question after a wrong answer, practice at the
end of the day); a real agent puts its model and memory here. Nothing is imported from the
simulator: only the wire format of docs/bring-your-own-tutor.md#mcp.

    # stdio: the agent starts the server itself
    python examples/python-mcp-agent/agent.py --stdio -- \\
        npx tsx src/cli/main.ts serve-mcp --scenario scenarios/fixtures/mini-3day.yaml --tracer bkt --out runs/py.jsonl
    # Streamable HTTP: the agent names itself and its model with headers
    npm run cli -- serve-mcp --transport http --port 3700 --out runs/py.jsonl &
    python examples/python-mcp-agent/agent.py --url http://127.0.0.1:3700/mcp --model my-model

The run id and the reports name the agent "python-example-tutor" (its clientInfo over stdio; the
X-Educlaw-Agent-Name header over HTTP, which also carries --model as X-Educlaw-Model, since this
SDK cannot send experimental capabilities).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import Implementation

NAME = "python-example-tutor"
VERSION = "1.0.0"


async def call(session: ClientSession, name: str, args: dict[str, Any] | None = None) -> Any:
    """Calls a tool; every tool of the server answers one JSON text."""
    res = await session.call_tool(name, args or {})
    for c in res.content:
        if getattr(c, "type", None) == "text":
            return json.loads(c.text)
    raise RuntimeError(f"{name}: no text content in the reply")


def value(result: dict[str, Any]) -> Any:
    return result.get("value") if result.get("ok") else None


async def teach(session: ClientSession, wake: dict[str, Any], stats: dict[str, Any]) -> None:
    """One turn: the tool calls for this wake."""
    reason = wake["reason"]
    payload = wake.get("payload") or {}

    async def tool(name: str, args: dict[str, Any] | None = None) -> Any:
        r = await call(session, name, args)
        stats["calls"] += 1
        if not r.get("ok"):
            code = r["error"]["code"]
            stats["errors"][code] = stats["errors"].get(code, 0) + 1
        return r

    if reason == "help_request" and isinstance(payload.get("item_id"), str):
        item = value(await tool("get_course_map", {"item_id": payload["item_id"]}))
        if item and item.get("hints"):
            await tool("provide_content", {"skill_id": item["skill_id"], "kind": "hint", "title": "A hint", "body": item["hints"][0], "item_id": payload["item_id"]})
        await tool("send_message", {"text": "What is the first step you would try?"})
    elif reason == "submission_graded" and not payload.get("correct"):
        await tool("send_message", {"text": "Not quite. Which step would you check first?"})
    elif reason == "end_of_day":
        course = value(await tool("get_course_map")) or {}
        skills = course.get("skills") or []
        if skills:
            skill = skills[wake["day"] % len(skills)]["skill_id"]
            await tool("assign_items", {"skill_id": skill, "count": 2, "due_in_days": 1, "note": "Practice for tomorrow"})
    elif reason == "learner_message":
        await tool("send_message", {"text": "Tell me how you worked it out."})
    else:
        await tool("stay_silent", {"reason": f"nothing to do on {reason}"})


async def tutor(session: ClientSession) -> dict[str, Any]:
    """Tutors every run the server has for this agent, to the end."""
    stats: dict[str, Any] = {"runs": [], "turns": 0, "calls": 0, "errors": {}, "ends": []}
    while True:
        ev = await call(session, "wait_for_event")
        if ev["type"] == "done":
            return stats
        if ev["type"] == "run_end":
            stats["ends"].append({"run_id": ev["run_id"], "reason": ev["reason"]})
            continue
        if ev["run_id"] not in stats["runs"]:
            stats["runs"].append(ev["run_id"])
        stats["turns"] += 1
        if not (ev.get("resumed") and ev["status"]["calls"] > 0):
            await teach(session, ev["wake"], stats)
        await call(session, "end_turn")


async def main(argv: list[str]) -> int:
    at = argv.index("--") if "--" in argv else len(argv)
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--url", help="serve-mcp's Streamable HTTP URL")
    p.add_argument("--stdio", action="store_true", help="start serve-mcp with the command after --")
    p.add_argument("--model", default="", help="the base model to report")
    o = p.parse_args(argv[:at])
    command = argv[at + 1 :]
    info = Implementation(name=NAME, version=VERSION)
    if o.url:
        from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

        headers = {"X-Educlaw-Agent-Name": NAME, "X-Educlaw-Agent-Version": VERSION, **({"X-Educlaw-Model": o.model} if o.model else {})}
        async with create_mcp_http_client(headers=headers) as http, streamable_http_client(o.url, http_client=http) as streams:
            read, write = streams[0], streams[1]
            async with ClientSession(read, write, client_info=info) as session:
                await session.initialize()
                stats = await tutor(session)
    elif o.stdio and command:
        params = StdioServerParameters(command=command[0], args=command[1:])
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write, client_info=info) as session:
                await session.initialize()
                stats = await tutor(session)
    else:
        p.error("give --url <serve-mcp URL>, or --stdio -- <command that starts serve-mcp>")
        return 2
    print(json.dumps(stats))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
