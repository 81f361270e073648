"""Reading a trace written with PTXRT_TRACE=out.json (Chrome trace events):
what scripts/trace-summary.py and scripts/trace-timeline.py share."""

import json


def load(path):
    """The process names, thread names and complete spans ("ph": "X") of
    the trace at `path` (a trace-event JSON object or a bare list)."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    events = data["traceEvents"] if isinstance(data, dict) else data
    procs, threads, spans = {}, {}, []
    for e in events:
        ph = e.get("ph")
        if ph == "M" and e.get("name") == "process_name":
            procs[e["pid"]] = e["args"]["name"]
        elif ph == "M" and e.get("name") == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
        elif ph == "X":
            spans.append(e)
    return procs, threads, spans
