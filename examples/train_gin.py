"""Train MaskablePPO on Gin against the greedy bot, plot the learning curve, and play the
trained policy in the arena against ``random`` and ``greedy``.

    pip install -e '.[train]'          # gymnasium, pettingzoo, sb3-contrib, torch (CPU), matplotlib
    nice python examples/train_gin.py --timesteps 400000 --max-minutes 40 --out runs/gin

Writes into ``--out``: ``model.zip`` (the policy), ``curve.png`` (the learning curve:
the margin per hand against greedy, my points less its points, a rolling mean), the
monitors' CSV files (every training hand) and ``summary.json`` (settings, time taken,
arena figures with 95% intervals). ``--smoke`` is a run of a few hundred steps that
checks the whole pipeline (the test suite runs it). See docs/rl.md for what a full run
takes here and reaches.

The environment is ``Gin-v0`` with one hand per episode and the ``margin`` reward (my
points less the opponent's, so a lost hand costs as much as a won one pays), divided by
25 for the optimiser. The seat is drawn anew each hand, so the policy learns to play
first and second.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import deadwood_knock.rl as rl
from deadwood_knock.arena import run_arena
from deadwood_knock.bots import register

REWARD_SCALE = 25.0  # a typical hand's points; keeps PPO's value targets near 1
POLICY_NAME = "ppo-gin"


def make_env(opponent: str, monitor_file: str | None) -> Any:
    from stable_baselines3.common.monitor import Monitor

    env = gymnasium.make("Gin-v0", opponents=[opponent], reward="margin", episode="round")
    # The monitor sits under the scaling, so it records raw points per hand.
    env = Monitor(env, monitor_file)
    return gymnasium.wrappers.TransformReward(env, lambda r: float(r) / REWARD_SCALE)


def train(args: argparse.Namespace, out: Path) -> tuple[Any, float]:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    class Deadline(BaseCallback):  # type: ignore[misc]
        """Stops at ``--max-minutes`` (a busy machine must not run the job for hours)
        and saves the model every 50,000 steps, so a killed run keeps its policy."""

        def __init__(self, seconds: float) -> None:
            super().__init__()
            self.deadline = time.perf_counter() + seconds
            self.saved = 0

        def _on_step(self) -> bool:
            if self.num_timesteps - self.saved >= 50_000:
                self.model.save(out / "model.zip")
                self.saved = self.num_timesteps
            return time.perf_counter() < self.deadline

    torch.set_num_threads(1)  # a shared 2-core machine: one core for the learner
    envs = DummyVecEnv(
        [
            (lambda i=i: make_env(args.opponent, str(out / f"monitor_{i}.csv")))
            for i in range(args.envs)
        ]
    )
    envs.seed(args.seed)
    model = MaskablePPO(
        "MultiInputPolicy",
        envs,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.epochs,
        learning_rate=args.lr,
        gamma=0.995,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        verbose=0,
        device="cpu",
    )
    started = time.perf_counter()
    model.learn(
        total_timesteps=args.timesteps,
        progress_bar=False,
        callback=Deadline(args.max_minutes * 60.0),
    )
    seconds = time.perf_counter() - started
    model.save(out / "model.zip")
    envs.close()
    return model, seconds


def read_monitors(out: Path, envs: int) -> list[tuple[float, float]]:
    """(wall time, points) of every training hand, all copies merged in time order."""
    rows: list[tuple[float, float]] = []
    for i in range(envs):
        path = out / f"monitor_{i}.csv.monitor.csv"
        if not path.exists():
            continue
        with path.open() as f:
            f.readline()  # the monitor's JSON header line
            rows += [(float(r["t"]), float(r["r"])) for r in csv.DictReader(f)]
    rows.sort()
    return rows


def plot_curve(rows: list[tuple[float, float]], out: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = np.array([r for _, r in rows], dtype=float)
    window = max(1, min(500, len(points) // 10))
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    if len(points):
        rolling = np.convolve(points, np.ones(window) / window, mode="valid")
        ax.plot(np.arange(window, len(points) + 1), rolling, color="#8b2e16", lw=1.8)
    ax.axhline(0.0, color="#555555", lw=0.8, ls="--")
    ax.set_xlabel("training hands")
    ax.set_ylabel(f"margin per hand: my points - greedy's\n(rolling mean of {window} hands)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out / "curve.png")
    plt.close(fig)


def arena_figures(model: Any, matches: int, seed: int, target: int) -> dict[str, Any]:
    """The trained policy in whole Gin matches against random and greedy (seats rotated,
    duplicate deals), through the arena as any bot."""

    def predict(vector: np.ndarray, mask: np.ndarray) -> int:
        obs = {"observation": vector, "action_mask": mask}
        action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    bot = rl.policy_bot(POLICY_NAME, predict)
    register(POLICY_NAME, lambda: bot)
    figures: dict[str, Any] = {}
    for rival in ("random", "greedy"):
        report = run_arena(
            "gin", [POLICY_NAME, rival], matches=matches, seed=seed, options={"target": target}
        )
        mean, (lo, hi) = report.margins[f"{POLICY_NAME} - {rival}"]
        ours = report.bots[POLICY_NAME]
        figures[rival] = {
            "matches": report.matches,
            "hands": ours.rounds,
            "margin_per_hand": round(mean, 2),
            "margin_ci95": [round(lo, 2), round(hi, 2)],
            "points_per_hand": round(ours.mean, 2),
            "match_win_rate": round(ours.win_rate, 3),
            "seconds": round(report.seconds, 1),
        }
    return figures


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--timesteps", type=int, default=300_000, help="learner decisions")
    p.add_argument("--max-minutes", type=float, default=60.0, help="stop training by then")
    p.add_argument("--envs", type=int, default=4, help="environment copies (one process)")
    p.add_argument("--n-steps", type=int, default=512, help="steps per copy per update")
    p.add_argument("--batch-size", type=int, default=256)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--opponent", default="greedy", help="the bot it trains against")
    p.add_argument("--matches", type=int, default=400, help="arena matches per rival")
    p.add_argument("--target", type=int, default=100, help="arena matches' game total")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="runs/train_gin", help="output directory")
    p.add_argument("--smoke", action="store_true", help="a few hundred steps, tiny arena")
    args = p.parse_args(argv)
    if args.smoke:
        args.timesteps, args.envs, args.n_steps, args.batch_size = 256, 2, 64, 64
        args.epochs, args.matches, args.target = 1, 2, 10
    if args.timesteps < 1 or args.envs < 1 or args.matches < 1:
        p.error("--timesteps, --envs and --matches must be positive")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    model, seconds = train(args, out)
    rows = read_monitors(out, args.envs)
    hands = len(rows)
    steps = int(model.num_timesteps)
    title = (
        f"MaskablePPO on Gin vs {args.opponent}: {steps:,} steps, "
        f"{hands:,} hands, {seconds / 60:.1f} min"
    )
    plot_curve(rows, out, title)
    first = [r for _, r in rows[: max(1, hands // 10)]]
    last = [r for _, r in rows[-max(1, hands // 10) :]]
    arena_started = time.perf_counter()
    figures = arena_figures(model, args.matches, args.seed + 1000, args.target)
    summary = {
        "settings": {k: v for k, v in vars(args).items() if k != "out"},
        "steps_trained": steps,
        "train_seconds": round(seconds, 1),
        "steps_per_second": round(steps / seconds, 1) if seconds else None,
        "training_hands": hands,
        "first_tenth_points_per_hand": round(float(np.mean(first)), 2) if rows else None,
        "last_tenth_points_per_hand": round(float(np.mean(last)), 2) if rows else None,
        "arena": figures,
        "arena_seconds": round(time.perf_counter() - arena_started, 1),
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    for rival, fig in figures.items():
        lo, hi = fig["margin_ci95"]
        print(
            f"{POLICY_NAME} vs {rival}: {fig['margin_per_hand']:+.2f} points per hand "
            f"[{lo:+.2f}, {hi:+.2f}] over {fig['hands']} hands in {fig['matches']} matches; "
            f"match win rate {fig['match_win_rate']:.3f}"
        )
    print(f"trained {steps:,} steps in {seconds:.0f} s; wrote {out}")
    return 0 if all(math.isfinite(f["margin_per_hand"]) for f in figures.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
