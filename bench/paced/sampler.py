"""A sampling profiler for a server process, stdlib only (py-spy is not in the lock):
the server runs in this process (``python -m bench.paced.sampler OUT -- serve …``) and,
between SIGUSR1 and SIGUSR2, a CPU-time timer (``ITIMER_PROF``) interrupts it every
``INTERVAL`` seconds of its CPU and notes the Python stack it was in. SIGUSR2 writes
the stacks to ``OUT`` in the collapsed form (``a;b;c count`` a line, for flame graphs)
and a summary by function (``OUT.top``: self and total samples).

The handler runs between bytecodes, so time inside one C call (a socket write, the
engine's C parts, msgpack) is counted at the Python line that called it."""

from __future__ import annotations

import collections
import signal
import sys
from pathlib import Path
from types import FrameType

INTERVAL = 0.001
ROOT = Path(__file__).resolve().parents[2]


class Sampler:
    def __init__(self, out: Path) -> None:
        self.out = out
        self.stacks: collections.Counter[tuple[str, ...]] = collections.Counter()

    @staticmethod
    def where(frame: FrameType) -> str:
        code = frame.f_code
        path = code.co_filename
        for cut in ("/site-packages/", "/lib/python3.11/", f"{ROOT}/"):
            if cut in path:
                path = path.split(cut, 1)[1]
        return f"{code.co_name} ({path}:{code.co_firstlineno})"

    def sample(self, signum: int, frame: FrameType | None) -> None:
        stack = []
        while frame is not None:
            stack.append(self.where(frame))
            frame = frame.f_back
        self.stacks[tuple(reversed(stack))] += 1

    def start(self, *_: object) -> None:
        self.stacks.clear()
        signal.signal(signal.SIGPROF, self.sample)
        signal.setitimer(signal.ITIMER_PROF, INTERVAL, INTERVAL)

    def stop(self, *_: object) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        total = sum(self.stacks.values()) or 1
        with self.out.open("w") as f:
            for stack, n in self.stacks.most_common():
                f.write(";".join(stack) + f" {n}\n")
        own: collections.Counter[str] = collections.Counter()
        inside: collections.Counter[str] = collections.Counter()
        for stack, n in self.stacks.items():
            own[stack[-1]] += n
            for fn in set(stack):
                inside[fn] += n
        with Path(f"{self.out}.top").open("w") as f:
            f.write(f"{total} samples of {INTERVAL * 1e3:g} ms of CPU\n\nself:\n")
            for fn, n in own.most_common(60):
                f.write(f"{100 * n / total:6.1f}%  {fn}\n")
            f.write("\ntotal (the function and what it called):\n")
            for fn, n in inside.most_common(120):
                f.write(f"{100 * n / total:6.1f}%  {fn}\n")


def main() -> None:
    out, rest = Path(sys.argv[1]), sys.argv[3:]
    sampler = Sampler(out)
    signal.signal(signal.SIGUSR1, sampler.start)
    signal.signal(signal.SIGUSR2, sampler.stop)
    from server.__main__ import main as server_main

    sys.exit(server_main(rest))


if __name__ == "__main__":
    main()
