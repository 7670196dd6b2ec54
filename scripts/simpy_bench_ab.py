#!/usr/bin/env python3
"""SimPy baseline for RetryStorm's `bench-ab` experiment (experiments/bench-ab.yaml).

A benchmark baseline, not part of the product: the same two-service call graph written the way a
competent engineer would write it in SimPy, so that RetryStorm's speed on a call graph can be
quoted against a typical Python discrete-event model ("RetryStorm vs SimPy", one hop deeper than
scripts/simpy_bench_fleet.py).

Run:
    pip install simpy; python3 scripts/simpy_bench_ab.py --clients 50000

Model (as in bench-ab.yaml, scaled to N clients; clients -> A -> B, no network delay):
  * N clients start operations as a Poisson process at 0.01/s each; one generator produces the
    aggregate Poisson stream of rate 0.01*N (equivalent in distribution).
  * Each client attempt is a request at service A and waits at most 2 s for A's answer. A late
    answer is abandoned, but A still serves the request and makes its call to B (no cancellation
    reaches downstream). A failed attempt -- a timeout, or A's 503 -- is retried after a wait
    uniform in [0, min(60, 2**(n-1))) s before retry n (full jitter); after the 3rd failed
    attempt the operation gives up.
  * Service A: an event-loop server (`release_while_calling`): 8 workers, unbounded FIFO queue,
    capacity 0.4*N requests/s together, exponential service (mean 8 / (0.4*N) s). A worker is
    freed when the request's own work is done; the request then calls B, one call of A's retry
    policy on the edge: each attempt is a request at B that A waits for at most 750 ms; a timed-out
    attempt is retried once after a wait uniform in [0, 1) s (exponential backoff, base 1 s, full
    jitter); after the 2nd failed attempt the call fails and A answers its caller 503. A late
    answer from B is abandoned (B still served it: wasted work).
  * Service B: one worker, unbounded FIFO queue, nominal capacity C = N/12.5 requests/s (first
    attempts are 12.5% of it), exponential service: work w ~ Exp(1) units, one unit takes 1/C s at
    full capacity. Capacity profile f(t): 1.0 before 60 s, 0.1 in [60, 120), linear 0.1 -> 1.0
    over [120, 240), 1.0 after. A request starting at s finishes at the T with
    integral_s^T C*f(t) dt = w (inverted exactly).
  * Horizon 3600 s. Python's `random` seeded with --seed.

Output: a CSV header and one line
    clients,operations,attempts,requests_a,requests_b,succeeded,gave_up,sim_events,wall_s,
    requests_per_operation_a,requests_per_operation_b
where attempts are the clients' (every one is a request at A, so requests_a = attempts),
requests_b the attempts of A's calls (requests at B), requests_per_operation_* the requests at a
service over the operations (RetryStorm's services.csv column of that name), and sim_events the
number of SimPy events the environment processed (popped from its event queue and ran the
callbacks of) before the horizon: every event SimPy schedules gets an id from its counter, so
processed = scheduled - still queued at the horizon - 1 (the horizon's own stop event). This costs
nothing per event, unlike wrapping env.step. wall_s is time.perf_counter() around env.run().
--verbose adds a second table on stderr: served_b (services.csv's `served` at B),
waiting_b_at_horizon, a_failed_503 (A's requests answered 503: `calls_failed` at B),
client_timeouts (`timed_out` at A) and edge_timeouts (`timed_out` at B).

--queue picks how B's FIFO queue is held: `deque` (default) is a server process that takes
requests from a collections.deque and sleeps on an event when idle; `store` is a plain
simpy.Store, whose get() is list.pop(0) -- O(queue length), which shows once B's backlog in the
storm nears its peak of about 250,000 requests at 50,000 clients. A's queue is a simpy.Resource
(its 8 workers are rarely all busy).

--no-gc turns off Python's cyclic garbage collector for the run (default: on, as in a typical
model). At 50,000 clients it saves about a sixth of the run: the backlog of abandoned requests
is smaller than bench-fleet's and drains after the storm.
"""

import argparse
import gc
import random
import sys

import simpy

HORIZON = 3600.0
RATE_PER_CLIENT = 0.01       # operations/s per client
CLIENT_TIMEOUT = 2.0
CLIENT_MAX_ATTEMPTS = 3
CLIENT_BACKOFF_BASE = 1.0
CLIENT_BACKOFF_MAX = 60.0

A_WORKERS = 8
A_CAPACITY_PER_CLIENT = 0.4  # A's capacity = 0.4 * N requests/s, all workers together

EDGE_TIMEOUT = 0.75          # A's per-attempt timeout on its calls to B
EDGE_MAX_ATTEMPTS = 2
EDGE_BACKOFF_BASE = 1.0
EDGE_BACKOFF_MAX = 10.0

CLIENTS_PER_CAPACITY_B = 12.5  # B's capacity C = N / 12.5 requests/s

# B's capacity profile and its single FIFO worker are bench-fleet's (`PROFILE`, an outage at 60 s
# to 10% for 60 s, then a linear ramp over 120 s): the same code, imported.
from simpy_bench_fleet import fifo_server, poisson_arrivals, timed_run  # noqa: E402  (scripts/ is on sys.path: the script's folder)


class Stats:
    __slots__ = ("operations", "attempts", "requests_a", "requests_b", "succeeded", "gave_up",
                 "client_timeouts", "a_failed", "edge_timeouts", "served_b")

    def __init__(self):
        for name in self.__slots__:
            setattr(self, name, 0)


def run(clients, seed, queue_kind):
    rng = random.Random(seed)
    expovariate = rng.expovariate
    uniform01 = rng.random
    env = simpy.Environment()
    stats = Stats()
    a_scale = A_WORKERS / (A_CAPACITY_PER_CLIENT * clients)   # seconds per unit of A's work
    b_scale = CLIENTS_PER_CAPACITY_B / clients                # nominal-seconds per unit of B's work

    # --- service B: one worker, FIFO, capacity profile ------------------------------------------
    # A request is the event its caller waits on; B triggers it when served, whether or not the
    # caller still waits (an abandoned request is still served: wasted work).
    def served_b():
        stats.served_b += 1

    send_b, server_b, waiting = fifo_server(env, queue_kind, lambda: expovariate(1.0) * b_scale, served_b)

    # --- service A: 8 workers, released when the request's own work is done ---------------------
    workers_a = simpy.Resource(env, capacity=A_WORKERS)

    def call_b():
        """A's call to B under A's edge policy: True if it succeeded, False if it failed."""
        attempt = 1
        while True:
            stats.requests_b += 1
            reply = env.event()
            send_b(reply)
            yield reply | env.timeout(EDGE_TIMEOUT)
            if reply.triggered:               # answered within the edge's timeout
                return True
            stats.edge_timeouts += 1
            if attempt == EDGE_MAX_ATTEMPTS:
                return False
            yield env.timeout(uniform01() * min(EDGE_BACKOFF_MAX, EDGE_BACKOFF_BASE * 2 ** (attempt - 1)))
            attempt += 1

    def request_a(answer):
        """One request at A: its own work on a worker, then its call to B, then its answer
        (True: 200, False: 503), which the client may no longer be waiting for."""
        stats.requests_a += 1
        with workers_a.request() as worker:
            yield worker
            yield env.timeout(expovariate(1.0) * a_scale)
        ok = yield from call_b()
        if not ok:
            stats.a_failed += 1
        answer.succeed(ok)

    # --- clients --------------------------------------------------------------------------------
    def operation():
        stats.operations += 1
        attempt = 1
        while True:
            stats.attempts += 1
            answer = env.event()
            env.process(request_a(answer))
            yield answer | env.timeout(CLIENT_TIMEOUT)
            if answer.triggered:
                if answer.value:              # 200 within the timeout
                    stats.succeeded += 1
                    return
                # 503 within the timeout: a failure like a timeout (retryable, no Retry-After)
            else:
                stats.client_timeouts += 1
            if attempt == CLIENT_MAX_ATTEMPTS:
                stats.gave_up += 1
                return
            # full jitter: uniform in [0, min(max, base * 2^(attempt-1)))
            yield env.timeout(uniform01() * min(CLIENT_BACKOFF_MAX, CLIENT_BACKOFF_BASE * 2 ** (attempt - 1)))
            attempt += 1

    env.process(server_b())
    env.process(poisson_arrivals(env, RATE_PER_CLIENT * clients, expovariate, operation))
    events, wall = timed_run(env, HORIZON)
    return stats, events, wall, waiting()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=50000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--queue", choices=("deque", "store"), default="deque")
    ap.add_argument("--no-gc", action="store_true", help="disable Python's cyclic GC for the run")
    ap.add_argument("--verbose", action="store_true", help="more counts on stderr")
    args = ap.parse_args()
    if args.no_gc:
        gc.disable()
    stats, events, wall, waiting_b = run(args.clients, args.seed, args.queue)
    ops = stats.operations
    rpo_a = stats.requests_a / ops if ops else float("nan")
    rpo_b = stats.requests_b / ops if ops else float("nan")
    print("clients,operations,attempts,requests_a,requests_b,succeeded,gave_up,sim_events,wall_s,"
          "requests_per_operation_a,requests_per_operation_b")
    print(f"{args.clients},{ops},{stats.attempts},{stats.requests_a},{stats.requests_b},"
          f"{stats.succeeded},{stats.gave_up},{events},{wall:.3f},{rpo_a:.6f},{rpo_b:.6f}")
    sys.stdout.flush()
    if args.verbose:
        print("served_b,waiting_b_at_horizon,a_failed_503,client_timeouts,edge_timeouts", file=sys.stderr)
        print(f"{stats.served_b},{waiting_b},{stats.a_failed},{stats.client_timeouts},{stats.edge_timeouts}",
              file=sys.stderr)


if __name__ == "__main__":
    main()
