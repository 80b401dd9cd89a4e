// SPDX-License-Identifier: MIT OR Apache-2.0
//! The repository's tasks. `bash scripts/generate.sh` writes every generated file and region
//! (the header, the bindings' tables, the copies of the measured ml_dtypes levels) from
//! the library's registry and src/np/ml_dtypes_levels.txt, and prints the files it
//! changed; `bash scripts/generate.sh --check` writes nothing and fails when one is stale.
//! `generate --library` does only the files compiled into the library (the dispatch table
//! over the low-precision formats), which the other generators' casts run through.

mod generate;

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (check, library_only) = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["generate"] => (false, false),
        ["generate", "--check"] => (true, false),
        ["generate", "--library"] => (false, true),
        ["generate", "--library", "--check"] => (true, true),
        _ => {
            eprintln!("usage: bash scripts/generate.sh [--check]");
            return ExitCode::from(2);
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask/ is inside the repository");
    // The library's own generated files first, without running the library (its kernels
    // dispatch through one of them): scripts/generate.sh runs `--library`, then the rest
    // with the library rebuilt on them.
    let outputs = if library_only {
        generate::library_outputs()
    } else {
        generate::outputs(root)
    };
    let mut stale = 0;
    for output in outputs {
        let path = root.join(output.path);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(output.text.as_str()) {
            continue;
        }
        stale += 1;
        if check {
            eprintln!("{} is stale: run `{}`", output.path, generate::COMMAND);
        } else {
            std::fs::write(&path, &output.text)
                .unwrap_or_else(|e| panic!("write {}: {e}", output.path));
            println!("wrote {}", output.path);
        }
    }
    if check && stale > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
