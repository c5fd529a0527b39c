"""GRPO (TRL) on taskkit's tasks over OpenEnv, on CPU, with a tiny language model built here.

    pip install torch --index-url https://download.pytorch.org/whl/cpu && pip install -e '.[train]'
    python examples/train_grpo.py --max_steps 4                    # starts python -m taskkit.openenv itself
    python examples/train_grpo.py --base_url http://127.0.0.1:8000 --tasks OpenAppTaskEval
    python examples/train_grpo.py --model Qwen/Qwen2.5-0.5B-Instruct --max_completion_length 64   # a GPU machine

Each prompt is a task's goal at one seed (`reset(seed=…)` on the OpenEnv server). Each completion
is played as one episode on the server: reset to that seed, the completion as the agent's action
(AndroidWorld's JSON as text, read as `taskkit/Task-v0` reads it), then `status complete` if the
episode is still open. The reward is the episode's, read from the device's state by the task's
check; GRPO compares the completions of one prompt with each other.

Without `--model`, the policy is a randomly initialised Llama of ~40 k parameters whose tokenizer
(built here, word-level) has the prompts' words and one token per action of a small menu: an
`open_app` for each app the tasks name. It generates one token, chosen among the menu's (the
other tokens suppressed), so even the untrained policy scores now and then on a one-action task
such as OpenAppTaskEval (open the named app), and GRPO has something to compare. Nothing is
downloaded.

`--output FILE` writes JSON: every episode the reward function played (goal, completion,
reward) and the reward the trainer logged at each step.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from taskkit import loading, registry  # noqa: E402
from taskkit.openenv import skip_web_ui  # noqa: E402

skip_web_ui()  # before openenv-core is imported: its web UI is not used here
from taskkit.openenv import TaskkitEnv  # noqa: E402
from taskkit.openenv.local import local_server  # noqa: E402

COMPLETE = '{"action_type": "status", "goal_status": "complete"}'
SPECIAL = {"pad": "<pad>", "eos": "</s>", "unk": "<unk>"}


class DeviceReward:
    """TRL's reward function: each completion played as an episode on the OpenEnv server."""

    __name__ = "device_reward"  # what TRL logs the reward under

    def __init__(self, env: Any) -> None:
        self.env = env
        self.episodes: list[dict[str, Any]] = []

    def __call__(self, prompts: list[str], completions: list[str], seed: list[int], task: list[str],
                 **_: Any) -> list[float]:
        rewards = []
        for completion, episode_seed, name in zip(completions, seed, task):
            goal = self.env.reset(seed=episode_seed, task=name).observation.goal
            result = self.env.step(completion.strip())
            if not result.done:
                result = self.env.step(COMPLETE)
            rewards.append(float(result.reward))
            self.episodes.append({"task": name, "seed": episode_seed, "goal": goal, "completion": completion,
                                  "reward": rewards[-1], "score": result.observation.score})
        return rewards


def action_menu(tasks: list[str]) -> list[str]:
    """The tiny policy's actions: open_app for each app the tasks name."""
    loading.load_builtin()
    apps = sorted({app for name in tasks for app in registry.get(name).app_names})
    return [json.dumps({"action_type": "open_app", "app_name": app}) for app in apps]


def tiny_policy(prompts: list[str], actions: list[str], seed: int) -> tuple[Any, Any, list[int]]:
    """A randomly initialised Llama, a word-level tokenizer (the prompts' words, one token per
    action) and the tokens it may not generate (all but the actions)."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    words = sorted({word for prompt in prompts for word, _ in pre_tokenizers.Whitespace().pre_tokenize_str(prompt)})
    vocabulary = {token: number for number, token in enumerate([*SPECIAL.values(), *words])}
    core = Tokenizer(models.WordLevel(vocabulary, unk_token=SPECIAL["unk"]))
    core.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, pad_token=SPECIAL["pad"], eos_token=SPECIAL["eos"],
                                        unk_token=SPECIAL["unk"], padding_side="left")
    tokenizer.add_tokens(actions)  # whole actions: matched before the words, decoded as they are
    torch.manual_seed(seed)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=256,
                         pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
                         bos_token_id=tokenizer.eos_token_id)
    menu = set(tokenizer.convert_tokens_to_ids(actions))
    return LlamaForCausalLM(config), tokenizer, [token for token in range(len(tokenizer)) if token not in menu]


@contextlib.contextmanager
def served(base_url: str | None, tasks: list[str]) -> Iterator[str]:
    """`base_url`, or a server of our own for the block."""
    if base_url:
        yield base_url
        return
    with local_server("--tasks", ",".join(tasks), "--max_sessions", "1") as url:
        yield url


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base_url", help="a running python -m taskkit.openenv (default: start one)")
    parser.add_argument("--tasks", default="OpenAppTaskEval", help="comma-separated task names")
    parser.add_argument("--seeds", type=int, default=8, help="prompts: each task at seeds 0..N-1")
    parser.add_argument("--max_steps", type=int, default=4, help="GRPO steps")
    parser.add_argument("--num_generations", type=int, default=4, help="completions per prompt")
    parser.add_argument("--max_completion_length", type=int, default=1, help="tokens (1: one action token)")
    parser.add_argument("--model", help="a causal LM name or path for from_pretrained (default: the tiny one)")
    parser.add_argument("--seed", type=int, default=0, help="the model's initialisation and GRPO's sampling")
    parser.add_argument("--output", help="write the episodes and the logged rewards as JSON here")
    args = parser.parse_args(argv)
    if args.max_steps < 1 or args.seeds < 1 or args.num_generations < 2:
        parser.error("--max_steps and --seeds must be at least 1, --num_generations at least 2")
    tasks = [name for name in args.tasks.split(",") if name]
    try:
        import torch
        from datasets import Dataset
        from trl import GRPOConfig, GRPOTrainer
    except ImportError:
        print("train_grpo.py: error: needs TRL and torch: pip install torch --index-url "
              "https://download.pytorch.org/whl/cpu && pip install -e '.[train]'", file=sys.stderr)
        return 2
    with served(args.base_url, tasks) as url, TaskkitEnv(base_url=url).sync() as env:
        rows = [{"prompt": env.reset(seed=seed, task=name).observation.goal, "seed": seed, "task": name}
                for name in tasks for seed in range(args.seeds)]
        if args.model:
            from transformers import AutoModelForCausalLM, AutoTokenizer

            model, tokenizer = AutoModelForCausalLM.from_pretrained(args.model), AutoTokenizer.from_pretrained(args.model)
            suppressed: list[int] = []
        else:
            model, tokenizer, suppressed = tiny_policy([row["prompt"] for row in rows], action_menu(tasks), args.seed)
        reward = DeviceReward(env)
        gpu = torch.cuda.is_available()
        with tempfile.TemporaryDirectory() as scratch:
            config = GRPOConfig(output_dir=scratch, max_steps=args.max_steps, num_generations=args.num_generations,
                                per_device_train_batch_size=args.num_generations,
                                max_completion_length=args.max_completion_length, learning_rate=1e-3, beta=0.0,
                                logging_steps=1, save_strategy="no", report_to=[], seed=args.seed,
                                disable_tqdm=True, use_cpu=not gpu, bf16=gpu,
                                generation_kwargs={"suppress_tokens": suppressed} if suppressed else None)
            trainer = GRPOTrainer(model=model, reward_funcs=reward, args=config, train_dataset=Dataset.from_list(rows),
                                  processing_class=tokenizer)
            trainer.train()
    logged = [entry["reward"] for entry in trainer.state.log_history if "reward" in entry]
    for step, value in enumerate(logged, 1):
        print(f"step {step}: mean reward {value:.3f}")
    print(f"{len(reward.episodes)} episodes played on the device, {sum(e['reward'] for e in reward.episodes):.0f} "
          "rewarded")
    if args.output:
        Path(args.output).write_text(json.dumps({"episodes": reward.episodes, "logged_rewards": logged}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
