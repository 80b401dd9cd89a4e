// SPDX-License-Identifier: MIT OR Apache-2.0
//! The repository's tasks. `bash scripts/generate.sh` writes every generated file and region
//! (the header, the bindings' tables, the copies of the measured ml_dtypes levels) from
//! the library's registry and src/np/ml_dtypes_levels.txt, and prints the files it
//! changed; `bash scripts/generate.sh --check` writes nothing and fails when one is stale.

mod generate;

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["generate"] => false,
        ["generate", "--check"] => true,
        _ => {
            eprintln!("usage: bash scripts/generate.sh [--check]");
            return ExitCode::from(2);
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask/ is inside the repository");
    let mut stale = 0;
    for output in generate::outputs(root) {
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
