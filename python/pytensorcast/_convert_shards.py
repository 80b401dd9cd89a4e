# SPDX-License-Identifier: MIT OR Apache-2.0
"""Sharded checkpoints (docs/python.md "Sharded checkpoints"): a directory of safetensors
shards with `model.safetensors.index.json`, as the Hugging Face hub ships them.

Every shard header is read and checked before anything is written. Shards are converted
in parallel into a staging directory inside OUT (each with bounded memory: the inputs
are memory-mapped, the casts run in chunks), checked, and moved into OUT together with
the other files and, last, the index, with Ctrl-C held off during the moves: an error or
an interrupt before them leaves OUT as it was.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import shutil
import signal
import stat
import threading
from typing import Optional

from ._convert import (
    TORCH_NAME,
    Mapped,
    Options,
    check_safetensors,
    convert_safetensors_to,
    plan_safetensors,
    plan_stats,
)
from ._convert_io import ConvertError, Progress, UsageError, create_temp, read_file_header, remove_quietly

STAGING_PREFIX = ".pytensorcast-staging-"
# Shards in flight at once: each holds a few chunks of 4M elements (under 100 MiB with
# --check on float64), so the process's anonymous memory stays under 512 MiB however
# many cores there are; the cores beyond are given to each shard's casts.
MAX_SHARD_WORKERS = 4


class _Shared:
    """A bar shared by the shard workers (closed by its owner, not by them)."""

    def __init__(self, bar: Progress):
        self.bar, self.lock = bar, threading.Lock()

    def add(self, n: int) -> None:
        with self.lock:
            self.bar.add(n)

    def close(self) -> None:
        pass


def parse_part(part: Optional[str]) -> Optional[tuple]:
    if part is None:
        return None
    try:
        k, n = (int(x) for x in part.split("/"))
    except ValueError:
        raise UsageError(f"--part takes K/N (this run's share of N, K from 1 to N), not {part!r}") from None
    if not 1 <= k <= n:
        raise UsageError(f"--part {part}: K must be from 1 to N")
    return k, n


def _plain_name(name: object, where: str) -> str:
    if not isinstance(name, str) or not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name:
        raise ConvertError(f"{where}: {name!r} is not a file name in the checkpoint's directory")
    return name


def find_checkpoint(inp: str) -> tuple:
    """(directory, index file name or None, index dict or None, shard names sorted)."""
    if os.path.isdir(inp):
        directory = inp
        names = sorted(os.listdir(directory))
        if "model.safetensors.index.json" in names:
            index_name = "model.safetensors.index.json"
        else:
            found = [n for n in names if n.endswith(".safetensors.index.json")]
            if len(found) > 1:
                raise ConvertError(f"{inp}: several index files ({', '.join(found)}); name the one to convert")
            index_name = found[0] if found else None
        if index_name is None:
            shards = [n for n in names if n.endswith(".safetensors") and os.path.isfile(os.path.join(inp, n))]
            if not shards:
                raise ConvertError(f"{inp}: no .safetensors files and no model.safetensors.index.json")
            return directory, None, None, shards
    else:
        directory, index_name = os.path.dirname(os.path.abspath(inp)), os.path.basename(inp)
    path = os.path.join(directory, index_name)
    try:
        with open(path, "rb") as f:
            index = json.loads(f.read().decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise ConvertError(f"{path}: not JSON: {str(e)[:200]}") from None
    if not isinstance(index, dict) or not isinstance(index.get("weight_map"), dict):
        raise ConvertError(f"{path}: no weight_map")
    meta = index.get("metadata", {})
    if meta is not None and not isinstance(meta, dict):
        raise ConvertError(f"{path}: metadata is not an object")
    shards = sorted({_plain_name(v, path) for v in index["weight_map"].values()})
    if not shards:
        raise ConvertError(f"{path}: the weight_map names no shards")
    return directory, index_name, index, shards


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _set_dtype(config: dict, torch_name: str) -> None:
    for key in ("torch_dtype", "dtype"):
        if isinstance(config.get(key), str):
            config[key] = torch_name
    if "torch_dtype" not in config and "dtype" not in config:
        config["torch_dtype"] = torch_name
    for v in config.values():  # sub-configs (text_config, vision_config ...)
        if isinstance(v, dict) and isinstance(v.get("torch_dtype"), str):
            v["torch_dtype"] = torch_name


def _write_json(path: str, value: dict) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=2, ensure_ascii=False)
        f.write("\n")


def convert_shards(inp: str, out: str, opts: Options, part: Optional[str] = None, finish: bool = False) -> dict:
    share = parse_part(part)
    if share and finish:
        raise UsageError("--part converts shards, --finish writes the index after them: one or the other")
    directory, index_name, index, shards = find_checkpoint(inp)
    if os.path.exists(out) and not os.path.isdir(out):
        raise ConvertError(f"{out}: exists and is not a directory; OUT is the directory to write")
    if _same(directory, out):
        raise ConvertError(f"OUT {out} is the input's directory {directory} (maybe through a link): "
                           "the input is never written")
    for name in shards:
        p = os.path.join(directory, name)
        st = os.stat(p)
        if not stat.S_ISREG(st.st_mode):
            raise ConvertError(f"{p}: not a regular file")
        if _same(p, os.path.join(out, name)):
            raise ConvertError(f"{os.path.join(out, name)} is the input shard {p} (the same file): "
                           "the input is never written")
    mine = shards if share is None else shards[share[0] - 1 :: share[1]]

    # every header (this run's shards) checked, and the weight_map against them, first
    headers = {name: read_file_header(os.path.join(directory, name)) for name in (mine if not finish else shards)}
    if index is not None:
        for tensor, shard in index["weight_map"].items():
            if shard in headers and tensor not in {t.name for t in headers[shard].tensors}:
                raise ConvertError(f"{os.path.join(directory, index_name)}: {tensor!r} is not in {shard}")
    total = sum(os.path.getsize(os.path.join(directory, n)) - headers[n].data_start for n in headers)

    created = not os.path.exists(out)
    os.makedirs(out, exist_ok=True)
    staging = None
    try:
        staging = _make_staging(out)
        results: dict = {}
        if finish:
            results = _verify_parts(directory, out, shards, opts, total)
        else:
            results = _convert_all(directory, staging, mine, opts, total)
        moves = [(os.path.join(staging, n), os.path.join(out, n)) for n in (mine if not finish else [])]
        others, skipped = [], []
        if share is None:
            others, skipped = _stage_others(directory, staging, index_name, shards, opts, results)
            moves += [(os.path.join(staging, n), os.path.join(out, n)) for n in others]
            if index is not None:
                new = dict(index)
                meta = dict(index.get("metadata") or {})
                meta["total_size"] = sum(nb for n in shards for _, nb in results[n])
                new["metadata"] = meta
                new["weight_map"] = {}
                for n in shards:
                    for t, _ in results[n]:
                        if t in new["weight_map"]:
                            raise ConvertError(f"{t!r} would be in both {new['weight_map'][t]} and {n}")
                        new["weight_map"][t] = n
                new["weight_map"] = dict(sorted(new["weight_map"].items()))
                _write_json(os.path.join(staging, index_name), new)
                moves.append((os.path.join(staging, index_name), os.path.join(out, index_name)))
        _move_all(moves)
    except OSError as e:
        _cleanup(staging, out, created)
        if e.filename is None:  # a write: say where
            raise OSError(e.errno, e.strerror, out) from None
        raise
    except BaseException:
        _cleanup(staging, out, created)
        raise
    os.rmdir(staging)
    stats = {
        "shards": len(mine) if not finish else 0,
        "files": len(others),
        "skipped": skipped,
        "converted": sum(getattr(r, "converted", 0) for r in results.values()),
        "copied": sum(getattr(r, "copied", 0) for r in results.values()),
        "quantized": sum(len(r.quantized) for r in results.values()),
        "bytes_in": sum(os.path.getsize(os.path.join(directory, n)) for n in (mine if not finish else shards)),
        "bytes_out": sum(os.path.getsize(os.path.join(out, n)) for n in (mine if not finish else shards)),
        "part": share,
        "finish": finish,
        "index": index_name if share is None else None,
    }
    return stats


def _cleanup(staging: Optional[str], out: str, created: bool) -> None:
    if staging is not None:
        shutil.rmtree(staging, ignore_errors=True)
    if created:
        try:
            os.rmdir(out)
        except OSError:
            pass


class _Result(list):
    """A shard's output tensors [(name, nbytes)] with its counts."""

    converted = 0
    copied = 0
    quantized: list = []
    kept: list = []


def _result(stats: dict) -> _Result:
    r = _Result(stats["tensors"])
    r.converted, r.copied = stats["converted"], stats["copied"]
    r.quantized, r.kept = stats["quantized"], stats["kept"]
    return r


def _make_staging(out: str) -> str:
    import secrets

    for _ in range(100):
        p = os.path.join(out, STAGING_PREFIX + secrets.token_hex(4))
        try:
            os.mkdir(p)
            return p
        except FileExistsError:
            continue
    raise ConvertError(f"{out}: cannot create a staging directory")


def _convert_all(directory: str, staging: str, names: list, opts: Options, total: int) -> dict:
    workers = max(1, min(len(names), opts.threads, MAX_SHARD_WORKERS))
    per = max(1, opts.threads // workers)
    bar = Progress(total, "convert", opts.progress, position=0)
    check_bar = Progress(total, "check", opts.progress, position=1) if opts.check else None
    shared = _Shared(bar)
    shared_check = _Shared(check_bar) if check_bar else None

    def one(name: str) -> _Result:
        opts.stopped()
        src = Mapped(os.path.join(directory, name))
        try:
            fd, tmp = create_temp(staging, name)
            try:
                stats = convert_safetensors_to(src, fd, tmp, opts, per, shared, lambda: shared_check)
                os.replace(tmp, os.path.join(staging, name))
                tmp = None
            finally:
                remove_quietly(tmp)
        finally:
            src.close()
        return _result(stats)

    results: dict = {}
    futures: dict = {}
    pool = cf.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="pytensorcast-shard")
    try:
        futures = {pool.submit(one, n): n for n in names}
        done, pending = cf.wait(futures, return_when=cf.FIRST_EXCEPTION)
        for f in done:
            if f.exception() is not None:
                raise f.exception()
        for f in futures:
            results[futures[f]] = f.result()
    except BaseException:
        opts.stop.set()
        for f in futures:
            f.cancel()
        raise
    finally:
        pool.shutdown(wait=True)
        bar.close()
        if check_bar:
            check_bar.close()
    return results


def _verify_parts(directory: str, out: str, shards: list, opts: Options, total: int) -> dict:
    """--finish: every shard must be in OUT as this run would have converted it (its
    header against the plan; with --check, its data too)."""
    results = {}
    bar = Progress(total, "check", opts.progress) if opts.check else None
    try:
        for name in shards:
            o = os.path.join(out, name)
            if not os.path.exists(o):
                raise ConvertError(f"{o}: missing; run every --part K/N before --finish")
            src = Mapped(os.path.join(directory, name))
            try:
                plan = plan_safetensors(src.header, opts)
                check_safetensors(src, plan, o, opts, opts.threads, bar or _Shared(Progress(0, "", False)),
                                  data=opts.check, label="--finish")
            finally:
                src.close()
            results[name] = _result(plan_stats(plan))
    finally:
        if bar:
            bar.close()
    return results


def _quantization_config(opts: Options, results: dict) -> dict:
    """config.json's quantization_config for a block-scaled output, as gpt-oss' (quant_method
    and the modules left in floating point), with how the blocks were made."""
    kept = sorted({n.rsplit(".", 1)[0] if n.endswith((".weight", ".bias")) else n
                   for r in results.values() for n in r.kept})
    return {
        "quant_method": opts.mx.name,
        "modules_to_not_convert": kept,
        "block_size": opts.mx.block,
        "scale_rule": "floor" if opts.mx.name != "nvfp4" else "nvfp4",
        "layout": "openai" if opts.mx_names == "openai" else "gpt-oss",
        "quantized_by": "pytensorcast",
    }


def _stage_others(directory: str, staging: str, index_name: Optional[str], shards: list, opts: Options,
                  results: dict) -> tuple:
    """Copies the checkpoint's other top-level files (config.json with torch_dtype set to
    the new dtype and, for block-scaled outputs, a quantization_config; tokenizer files
    ...) into staging; returns (copied, skipped dirs)."""
    copied, skipped = [], []
    skip = set(shards) | {index_name}
    for name in sorted(os.listdir(directory)):
        p = os.path.join(directory, name)
        if name in skip or name.startswith(STAGING_PREFIX):
            continue
        if os.path.isdir(p):
            skipped.append(name + "/")
            continue
        if not os.path.isfile(p):
            continue
        dst = os.path.join(staging, name)
        if name == "config.json":
            try:
                with open(p, "rb") as f:
                    config = json.loads(f.read().decode("utf-8"))
            except (UnicodeDecodeError, ValueError, RecursionError):
                config = None
            if isinstance(config, dict):
                if opts.st_name is not None:
                    _set_dtype(config, TORCH_NAME[opts.st_name])
                if opts.mx is not None:
                    config["quantization_config"] = _quantization_config(opts, results)
                _write_json(dst, config)
                copied.append(name)
                continue
        shutil.copyfile(p, dst)
        copied.append(name)
    return copied, skipped


def _move_all(moves: list) -> None:
    """Renames the staged files into OUT, the index last, with Ctrl-C held off until all
    are in place (a Ctrl-C meanwhile is ignored: the conversion is complete)."""
    held = []
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGINT, lambda *a: held.append(a))
    try:
        for src, dst in moves:
            os.replace(src, dst)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
