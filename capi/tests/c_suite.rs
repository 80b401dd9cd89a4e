// SPDX-License-Identifier: MIT OR Apache-2.0
//! The C test suite (`tests/c/test_*.c`) under `cargo test`: each file is compiled with
//! the C compiler the `cc` crate finds, linked against the cdylib cargo built for this
//! very test run, and run; a nonzero exit fails the test and shows the program's output.
//! CMake runs the same programs through CTest (see CMakeLists.txt).
//!
//! Cross-compiled (`cargo test --target T` under an emulator), the programs are built by
//! the C compiler for T, which the `cc` crate takes from `CC_<T>` (for instance
//! `CC_s390x_unknown_linux_gnu=s390x-linux-gnu-gcc`), and run through the emulator cargo
//! runs the tests with, `CARGO_TARGET_<T>_RUNNER` (for instance `qemu-s390x -L
//! /usr/s390x-linux-gnu`), read from the environment. scripts/test-cross.sh sets both.
//! A program run through it gets the emulator's command line in `TCAST_TEST_EMULATOR`;
//! a part of it that cannot run emulated is reported on a "NOT RUN:" line, printed with
//! the summary (and not allowed natively).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

#[path = "../../tests/common/mod.rs"]
mod common;
use common::target_triple;

/// The repository root (the core package): tests/c/ and cmake/ are there.
const REPO_ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The C tests, one `#[test]` each. `every_c_test_is_listed` keeps this in step with the
/// files in tests/c/.
macro_rules! c_tests {
    ($($name:ident),* $(,)?) => {
        const C_TESTS: &[&str] = &[$(stringify!($name)),*];
        $(
            #[test]
            fn $name() {
                run_c_test(stringify!($name));
            }
        )*
    };
}

c_tests!(
    test_status,
    test_dtype,
    test_tensor,
    test_cast,
    test_strings,
    test_lowp,
    test_expand,
    test_bitcast,
    test_qdq,
    test_mx,
    test_dlpack,
    test_np_can_cast,
    test_alloc,
    test_check_order,
    test_np_linear,
    test_threads,
    test_fpenv,
    test_quiet
);

#[test]
fn every_c_test_is_listed() {
    let mut found: Vec<String> = std::fs::read_dir(Path::new(REPO_ROOT).join("tests").join("c"))
        .expect("read tests/c/")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".c")?;
            stem.starts_with("test_").then(|| stem.to_string())
        })
        .collect();
    found.sort();
    let mut listed: Vec<String> = C_TESTS.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(
        found, listed,
        "add new tests/c/test_*.c files to c_tests! in tests/c_suite.rs"
    );
}

/// How the C programs get the library.
enum Link {
    /// `-L dir -ltensorcast`, found at run time through rpath and LD_LIBRARY_PATH.
    Shared(PathBuf),
    /// The staticlib by path, with the system libraries Rust's std needs (on Linux; the
    /// list of cmake/native-static-libs.txt).
    Static(PathBuf),
}

/// The library built for this run. `cargo test` compiles this package's library (capi/)
/// once with all its crate types into target/<profile>/deps/ (this binary's directory)
/// and links this test against the rlib of that same rustc run; unlike `cargo build` it does not copy them up
/// to target/<profile>/, so the copies there may be stale and are not used.
fn library() -> Link {
    let exe = std::env::current_exe().expect("current_exe");
    let deps = exe.parent().expect("the test binary has a directory");
    let rlib = deps.join("libtensorcast.rlib");
    let shared = deps.join(format!(
        "{}tensorcast{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    let staticlib = deps.join("libtensorcast.a");
    // Written by the same rustc run as the rlib, so never much older.
    let fresh = |path: &Path| -> bool {
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        match (modified(path), modified(&rlib)) {
            (Some(lib), Some(rlib)) => lib + Duration::from_secs(120) >= rlib,
            (Some(_), None) => true,
            _ => false,
        }
    };
    if fresh(&shared) {
        Link::Shared(with_soname_link(deps))
    } else if fresh(&staticlib) {
        Link::Static(staticlib)
    } else {
        panic!(
            "no fresh {} or {} beside the test binary in {}: does Cargo.toml still build the \
             cdylib and staticlib?",
            shared.display(),
            staticlib.display(),
            deps.display()
        );
    }
}

/// The directory to link and run the C programs against. On Linux the cdylib has a SONAME
/// (build.rs), which is the name a program linked against it looks for at run time: the
/// programs get a directory where that name, and the link-time name, lead to the library
/// of this run.
fn with_soname_link(deps: &Path) -> PathBuf {
    if !cfg!(target_os = "linux") {
        return deps.to_path_buf();
    }
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_suite_lib");
        std::fs::create_dir_all(&dir).expect("create the C suite's library directory");
        let soname = format!("libtensorcast.so.{}", env!("CARGO_PKG_VERSION_MAJOR"));
        for name in ["libtensorcast.so", soname.as_str()] {
            let link = dir.join(name);
            let _ = std::fs::remove_file(&link);
            symlink(&deps.join("libtensorcast.so"), &link);
        }
        dir
    })
    .clone()
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link)
        .unwrap_or_else(|e| panic!("symlink {} -> {}: {e}", link.display(), target.display()));
}

#[cfg(not(unix))]
fn symlink(_target: &Path, _link: &Path) {
    unreachable!("only Linux builds give the library a SONAME");
}

/// Compiles tests/c/<name>.c into a program and returns its path.
fn compile(name: &str, link: &Link) -> PathBuf {
    let root = Path::new(REPO_ROOT);
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_suite");
    std::fs::create_dir_all(&out_dir).expect("create the C suite's output directory");
    let triple = target_triple();
    let mut build = cc::Build::new();
    build
        .target(&triple)
        .host(&triple)
        .opt_level(1)
        .debug(true)
        .out_dir(&out_dir)
        .cargo_metadata(false)
        .cargo_warnings(false)
        .emit_rerun_if_env_changed(false)
        .inherit_rustflags(false)
        .std("c11")
        .warnings(true)
        .extra_warnings(true)
        // A const input needs no cast that drops the qualifier (TCAST_CONST_DATA).
        .flag("-Werror=cast-qual")
        .include(root.join("include"))
        .include(root.join("tests").join("c"));
    let compiler = build.get_compiler();
    assert!(
        compiler.is_like_gnu() || compiler.is_like_clang(),
        "the C suite needs gcc or clang, found {}",
        compiler.path().display()
    );
    let exe = out_dir.join(name);
    let mut cmd = compiler.to_command();
    cmd.arg(root.join("tests").join("c").join(format!("{name}.c")))
        .arg("-o")
        .arg(&exe);
    match link {
        Link::Shared(dir) => {
            cmd.arg(format!("-L{}", dir.display()))
                .arg("-ltensorcast")
                .arg(format!("-Wl,-rpath,{}", dir.display()));
        }
        Link::Static(lib) => {
            cmd.arg(lib).args(native_static_libs());
        }
    }
    // test_fpenv sets the rounding mode through <fenv.h>.
    cmd.arg("-lm");
    let output = cmd
        .output()
        .unwrap_or_else(|e| panic!("run the C compiler {cmd:?}: {e}"));
    assert!(
        output.status.success(),
        "compiling tests/c/{name}.c failed ({}):\n{cmd:?}\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    exe
}

/// `-l<name>` for each name of cmake/native-static-libs.txt, the one place that lists the
/// system libraries a static link needs (scripts/test-install.sh checks it against rustc).
fn native_static_libs() -> Vec<String> {
    let path = Path::new(REPO_ROOT).join("cmake/native-static-libs.txt");
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let flags: Vec<String> = text
        .lines()
        .filter(|line| !line.starts_with('#'))
        .flat_map(str::split_whitespace)
        .map(|name| format!("-l{name}"))
        .collect();
    assert!(!flags.is_empty(), "no library names in {}", path.display());
    flags
}

/// The emulator cargo runs this target's tests with, from `CARGO_TARGET_<T>_RUNNER` (T
/// the triple in upper case, `-` as `_`), split on whitespace: the program and its
/// arguments. None when the variable is unset (the programs run directly).
fn runner() -> Option<Vec<String>> {
    let name = format!(
        "CARGO_TARGET_{}_RUNNER",
        target_triple().to_uppercase().replace(['-', '.'], "_")
    );
    let value = std::env::var(&name).ok()?;
    let words: Vec<String> = value.split_whitespace().map(str::to_string).collect();
    assert!(!words.is_empty(), "{name} is set but empty");
    Some(words)
}

fn run_c_test(name: &str) {
    let link = library();
    let exe = compile(name, &link);
    let runner = runner();
    let mut cmd = match &runner {
        Some(words) => {
            let mut cmd = Command::new(&words[0]);
            cmd.args(&words[1..])
                .arg(&exe)
                .env("TCAST_TEST_EMULATOR", words.join(" "));
            cmd
        }
        None => Command::new(&exe),
    };
    if let Link::Shared(dir) = &link {
        let mut paths = vec![dir.clone()];
        if let Some(old) = std::env::var_os("LD_LIBRARY_PATH") {
            paths.extend(std::env::split_paths(&old));
        }
        cmd.env(
            "LD_LIBRARY_PATH",
            std::env::join_paths(paths).expect("join LD_LIBRARY_PATH"),
        );
    }
    let output = cmd.output().unwrap_or_else(|e| {
        panic!(
            "run {cmd:?}: {e} (a program built for {} may need its emulator in \
             CARGO_TARGET_<TRIPLE>_RUNNER)",
            target_triple()
        )
    });
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "tests/c/{name}.c failed ({}):\n--- stdout\n{stdout}--- stderr\n{stderr}",
        output.status
    );
    // The summary line proves the program ran to its end.
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(
        summary.ends_with(" passed, 0 failed"),
        "tests/c/{name}.c printed no summary line:\n{stdout}{stderr}"
    );
    let library = match &link {
        Link::Shared(dir) => format!("the cdylib in {}", dir.display()),
        Link::Static(lib) => format!("the staticlib {}", lib.display()),
    };
    // A part a program cannot run under the emulator (test_alloc's limited address
    // space) is named on a "NOT RUN:" line; natively nothing may be left out.
    let not_run: Vec<&str> = stdout
        .lines()
        .filter(|line| line.starts_with("NOT RUN:"))
        .collect();
    assert!(
        runner.is_some() || not_run.is_empty(),
        "tests/c/{name}.c left checks out natively:\n{}",
        not_run.join("\n")
    );
    let through = match &runner {
        Some(words) => format!(", run through {}", words.join(" ")),
        None => String::new(),
    };
    println!("{name}: {summary} (linked against {library}{through})");
    for line in not_run {
        println!("{name}: {line}");
    }
}
