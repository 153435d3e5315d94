//! `vendor/cranelift-codegen` and `vendor/cranelift-codegen-meta` (0.135.8) and `vendor/regalloc2`
//! (0.15.2) must be the published crates, whose files `vendor/upstream.sha256` lists, plus the numbered
//! patches in `vendor/patches`, and nothing else. The check copies the crates to a temporary directory, reverse-applies the patches
//! (last first) with `git apply -R`, and compares what is left with `vendor/upstream.sha256`: the same
//! files, byte for byte. `scripts/vendor-cranelift.sh check` makes the same check from the shell;
//! `vendor/patches/README.md` describes the workflow.

use crate::support;

use sha2::Digest;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Each vendored crate and its published version.
const CRATES: [(&str, &str); 3] =
    [("cranelift-codegen", "0.135.8"), ("cranelift-codegen-meta", "0.135.8"), ("regalloc2", "0.15.2")];

#[test]
fn vendor_is_upstream_plus_patches() {
    if !git_found() {
        return;
    }
    let vendor = Path::new(env!("CARGO_MANIFEST_DIR")).join("vendor");
    if let Err(e) = verify_vendor(&vendor) {
        panic!("{e}");
    }
}

#[test]
fn patches_are_numbered_and_have_headers() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("vendor/patches");
    if let Err(e) = patch_list(&dir) {
        panic!("{e}");
    }
}

/// `verify_vendor` itself, on a tree made from the published archives in cargo's download cache:
/// it must accept the pristine tree and the tree plus a patch, and name the first file of a tree with
/// changes the patches do not explain.
#[test]
fn verify_vendor_on_a_pristine_tree() {
    if !git_found() {
        return;
    }
    let Some(archives) = cached_archives() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("vendor");
    let pristine = tmp.path().join("a");
    fs::create_dir_all(root.join("patches")).unwrap();
    fs::create_dir(&pristine).unwrap();
    let repo_vendor = Path::new(env!("CARGO_MANIFEST_DIR")).join("vendor");
    fs::copy(repo_vendor.join("upstream.sha256"), root.join("upstream.sha256")).unwrap();
    for ((krate, version), archive) in CRATES.iter().zip(&archives) {
        let out = Command::new("tar").arg("-xzf").arg(archive).arg("-C").arg(&pristine).output();
        match out {
            Ok(out) if out.status.success() => {}
            Ok(out) => panic!("tar -xzf {}: {}", archive.display(), String::from_utf8_lossy(&out.stderr)),
            Err(_) => {
                support::host_has(false, "tar");
                return;
            }
        }
        fs::rename(pristine.join(format!("{krate}-{version}")), pristine.join(krate)).unwrap();
        copy_dir(&pristine.join(krate), &root.join(krate)).unwrap();
    }
    assert_eq!(verify_vendor(&root), Ok(0));

    // An edit, an added file and a deleted file, not yet in a patch: the first difference in path
    // order is the deleted README.md ('-' sorts before '/').
    let lib = root.join("cranelift-codegen/src/lib.rs");
    let mut text = fs::read_to_string(&lib).unwrap();
    text.push_str("// patchmap: an edit\n");
    fs::write(&lib, &text).unwrap();
    fs::write(root.join("cranelift-codegen-meta/src/added.rs"), "pub fn added() {}\n").unwrap();
    let ra_lib = root.join("regalloc2/src/lib.rs");
    let ra_text = fs::read_to_string(&ra_lib).unwrap();
    fs::write(&ra_lib, format!("{ra_text}// patchmap: an edit of regalloc2\n")).unwrap();
    fs::remove_file(root.join("cranelift-codegen-meta/README.md")).unwrap();
    let err = verify_vendor(&root).unwrap_err();
    assert!(err.contains("first difference: cranelift-codegen-meta/README.md is missing"), "{err}");
    assert!(err.contains("cranelift-codegen-meta/src/added.rs is extra"), "{err}");
    assert!(err.contains("cranelift-codegen/src/lib.rs differs"), "{err}");
    assert!(err.contains("regalloc2/src/lib.rs differs"), "{err}");

    // The same changes as a patch, made the way scripts/vendor-cranelift.sh refresh makes one: a/ is
    // upstream, b/ the edited tree.
    fs::create_dir(tmp.path().join("b")).unwrap();
    for (krate, _) in CRATES {
        copy_dir(&root.join(krate), &tmp.path().join("b").join(krate)).unwrap();
    }
    let diff = git(tmp.path())
        .args(["diff", "--no-index", "--no-prefix", "--binary", "--no-renames", "--no-color", "a", "b"])
        .output()
        .unwrap();
    assert_eq!(diff.status.code(), Some(1), "{}", String::from_utf8_lossy(&diff.stderr));
    let mut body = String::new();
    for line in String::from_utf8(diff.stdout).unwrap().lines() {
        // An added file's line reads "diff --git b/X b/X", a deleted one's "diff --git a/X a/X".
        let line = match line.strip_prefix("diff --git ").and_then(|l| l.split_once(' ')) {
            Some((x, _)) => format!("diff --git a/{} b/{}", &x[2..], &x[2..]),
            None => line.to_string(),
        };
        body.push_str(&line);
        body.push('\n');
    }
    let patch = root.join("patches/0001-test-edit.patch");
    fs::write(&patch, format!("A test edit.\n\n{body}")).unwrap();
    assert_eq!(verify_vendor(&root), Ok(1));

    // A stray file and an edit made after the patch are each named.
    fs::write(root.join("cranelift-codegen/src/lib.rs~"), "backup").unwrap();
    let err = verify_vendor(&root).unwrap_err();
    assert!(err.contains("first difference: cranelift-codegen/src/lib.rs~ is extra"), "{err}");
    fs::remove_file(root.join("cranelift-codegen/src/lib.rs~")).unwrap();
    let toml = root.join("cranelift-codegen/Cargo.toml");
    let original = fs::read(&toml).unwrap();
    fs::write(&toml, [&original[..], b"\n"].concat()).unwrap();
    let err = verify_vendor(&root).unwrap_err();
    assert!(err.contains("first difference: cranelift-codegen/Cargo.toml differs"), "{err}");
    fs::write(&toml, &original).unwrap();
    assert_eq!(verify_vendor(&root), Ok(1));

    // An edit inside the patched lines: the patch no longer reverse-applies.
    fs::write(&lib, text.replace("// patchmap: an edit\n", "// patchmap: an edit, changed\n")).unwrap();
    let err = verify_vendor(&root).unwrap_err();
    assert!(err.contains("0001-test-edit.patch does not reverse-apply"), "{err}");
}

#[test]
fn patch_list_checks_names_numbers_and_headers() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let diff = "diff --git a/cranelift-codegen/x b/cranelift-codegen/x\n--- a/cranelift-codegen/x\n+++ b/cranelift-codegen/x\n";
    assert_eq!(patch_list(&dir.join("missing")), Ok(vec![]));
    assert_eq!(patch_list(dir), Ok(vec![]));
    fs::write(dir.join("README.md"), "workflow").unwrap();
    fs::write(dir.join("0001-one.patch"), format!("Why one.\n{diff}")).unwrap();
    let ra_diff = "diff --git a/regalloc2/src/lib.rs b/regalloc2/src/lib.rs\n";
    fs::write(dir.join("0002-two.patch"), format!("Why two.\n\n{diff}{ra_diff}")).unwrap();
    assert_eq!(patch_list(dir).map(|v| v.len()), Ok(2));

    let bad = |name: &str, text: &str, expect: &str| {
        fs::write(dir.join(name), text).unwrap();
        let err = patch_list(dir).unwrap_err();
        assert!(err.contains(expect), "{name}: {err}");
        fs::remove_file(dir.join(name)).unwrap();
    };
    bad("0004-gap.patch", &format!("Why.\n{diff}"), "0004-gap.patch: expected number 0003");
    bad("0002-again.patch", &format!("Why.\n{diff}"), "expected number 0003");
    bad("0003-no-header.patch", &format!("\n  \n{diff}"), "no header");
    bad("0003-bare.patch", "--- a/cranelift-codegen/x\n+++ b/cranelift-codegen/x\n", "no header");
    bad("0003-empty.patch", "Why.\n", "contains no diff");
    bad("0003-x.patch.orig", "", "not README.md nor a NNNN-name.patch");
    bad("3-short.patch", "", "not README.md nor a NNNN-name.patch");
    bad("0003-outside.patch", "Why.\ndiff --git a/src/lib.rs b/src/lib.rs\n", "outside");
    // A "---" line of the header that no "+++" line follows is header text.
    fs::write(dir.join("0003-dashes.patch"), format!("Why.\n---\n--- more\n{diff}")).unwrap();
    assert_eq!(header_of(&fs::read_to_string(dir.join("0003-dashes.patch")).unwrap()), "Why.\n---\n--- more\n");
    assert_eq!(patch_list(dir).map(|v| v.len()), Ok(3));
}

#[test]
fn sha256_known_answers() {
    let hex = |data: &[u8]| to_hex(&sha256(data));
    assert_eq!(hex(b""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert_eq!(hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert_eq!(
        hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    );
    assert_eq!(hex(&[b'a'; 1_000_000]), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/// Checks that `vendor` (a directory laid out like the repository's `vendor/`: `upstream.sha256`,
/// `patches/`, `cranelift-codegen/`, `cranelift-codegen-meta/`, `regalloc2/`) holds upstream plus its patches and
/// nothing else. Returns the number of patches, or a message naming the first differing file.
fn verify_vendor(vendor: &Path) -> Result<usize, String> {
    let patches = patch_list(&vendor.join("patches"))?;
    let manifest_path = vendor.join("upstream.sha256");
    let manifest =
        fs::read_to_string(&manifest_path).map_err(|e| format!("cannot read {}: {e}", manifest_path.display()))?;
    let expected = parse_manifest(&manifest).map_err(|e| format!("{}: {e}", manifest_path.display()))?;

    let tmp = tempfile::tempdir().map_err(|e| format!("cannot make a temporary directory: {e}"))?;
    for (krate, _) in CRATES {
        copy_dir(&vendor.join(krate), &tmp.path().join(krate))?;
    }
    for patch in patches.iter().rev() {
        let out = git(tmp.path())
            .args(["apply", "--whitespace=nowarn", "-R"])
            .arg(patch)
            .output()
            .map_err(|e| format!("cannot run git: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "{} does not reverse-apply to {} (with the later patches reversed): the tree is not \
                 upstream plus the patches. Was it edited after the patch was last \
                 refreshed? Save the edit with scripts/vendor-cranelift.sh refresh N.\ngit apply -R says:\n{}",
                file_name(patch),
                vendor.display(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }

    let mut actual = BTreeMap::new();
    for (krate, _) in CRATES {
        list_files(tmp.path(), Path::new(krate), &mut actual)?;
    }
    let paths: BTreeSet<&String> = expected.keys().chain(actual.keys()).collect();
    let mut problems = Vec::new();
    for path in paths {
        match (expected.get(path), actual.get(path)) {
            (Some(_), None) => problems.push(format!("{path} is missing (it is in upstream.sha256)")),
            (None, Some(_)) => problems.push(format!("{path} is extra (not in upstream.sha256, not added by a patch)")),
            (Some(want), Some(file)) => {
                let data = fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
                let got = to_hex(&sha256(&data));
                if got != *want {
                    problems.push(format!("{path} differs from upstream (sha256 {got}, upstream.sha256 says {want})"));
                }
            }
            (None, None) => unreachable!(),
        }
    }
    if problems.is_empty() {
        return Ok(patches.len());
    }
    const SHOWN: usize = 20;
    let mut msg = format!(
        "{} is not {} plus the {} patch(es) in its patches/ directory (paths after reverse-applying \
         the patches):\nfirst difference: {}\n",
        vendor.display(),
        CRATES.map(|(krate, version)| format!("{krate} {version}")).join(", "),
        patches.len(),
        problems[0]
    );
    for p in problems.iter().skip(1).take(SHOWN - 1) {
        msg.push_str(&format!("also: {p}\n"));
    }
    if problems.len() > SHOWN {
        msg.push_str(&format!("... and {} more\n", problems.len() - SHOWN));
    }
    msg.push_str(
        "An edit of the vendor tree not yet saved as a patch? Run scripts/vendor-cranelift.sh refresh N \
         (see vendor/patches/README.md).",
    );
    Err(msg)
}

/// The patches of `dir` in apply order, after checking that `dir` holds only `README.md` and
/// `0001-name.patch`, `0002-name.patch`, ... without gaps, each with a header (text before its first
/// diff) and at least one diff of files of the vendored crates. A missing `dir` has no patches.
fn patch_list(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(vec![]),
        Err(e) => return Err(format!("cannot read {}: {e}", dir.display())),
    };
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        names.push(entry.file_name().to_string_lossy().into_owned());
    }
    names.sort();
    let mut patches = Vec::new();
    for name in names.iter().filter(|n| *n != "README.md") {
        let what = format!("{}/{name}", dir.display());
        let well_named = name.len() > 11
            && name.as_bytes()[..4].iter().all(u8::is_ascii_digit)
            && name.as_bytes()[4] == b'-'
            && name.ends_with(".patch")
            && name[5..name.len() - 6].bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
        if !well_named || !dir.join(name).is_file() {
            return Err(format!("{what}: not README.md nor a NNNN-name.patch file"));
        }
        let expect = patches.len() + 1;
        if name[..4].parse::<usize>() != Ok(expect) {
            return Err(format!(
                "{what}: expected number {expect:04} here (patches are numbered 0001, 0002, ... without gaps or repeats)"
            ));
        }
        let text = fs::read_to_string(dir.join(name)).map_err(|e| format!("cannot read {what}: {e}"))?;
        if header_of(&text).trim().is_empty() {
            return Err(format!("{what}: no header text before the first diff (say what the change is and why)"));
        }
        let mut diffs = 0;
        for line in text.lines().filter_map(|l| l.strip_prefix("diff --git ")) {
            diffs += 1;
            // "a/cranelift-codegen/... b/cranelift-codegen/...", possibly quoted.
            let inside = |p: &str| {
                let p = p.trim_start_matches('"');
                let p = p.strip_prefix("a/").or_else(|| p.strip_prefix("b/")).unwrap_or("");
                CRATES.iter().any(|(c, _)| p.strip_prefix(c).is_some_and(|rest| rest.starts_with('/')))
            };
            let (a, b) = line.split_once(' ').unwrap_or((line, ""));
            if !inside(a) || !inside(b) {
                return Err(format!("{what}: diff of a file outside the vendored crates' directories: {line}"));
            }
        }
        if diffs == 0 {
            return Err(format!("{what}: contains no diff"));
        }
        patches.push(dir.join(name).canonicalize().map_err(|e| format!("{what}: {e}"))?);
    }
    Ok(patches)
}

/// The text of a patch before its first diff: before the first `diff --git ` line, or the first `--- `
/// line directly followed by a `+++ ` line (where `git apply` starts reading).
fn header_of(text: &str) -> &str {
    let mut offset = 0;
    let mut lines = text.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        let starts_diff = line.starts_with("diff --git ")
            || (line.starts_with("--- ") && lines.peek().is_some_and(|next| next.starts_with("+++ ")));
        if starts_diff {
            break;
        }
        offset += line.len();
    }
    &text[..offset]
}

/// `upstream.sha256` (`sha256sum` output) as path -> hex digest.
fn parse_manifest(text: &str) -> Result<BTreeMap<String, String>, String> {
    let mut files = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let parsed = line.split_at_checked(64).and_then(|(hash, rest)| {
            let path = rest.strip_prefix("  ").or_else(|| rest.strip_prefix(" *"))?;
            let ok = hash.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()) && !path.is_empty();
            ok.then(|| (path.to_string(), hash.to_string()))
        });
        let (path, hash) = parsed.ok_or_else(|| format!("line {}: not '<sha256>  <path>': {line}", n + 1))?;
        if files.insert(path, hash).is_some() {
            return Err(format!("line {}: the path is listed twice: {line}", n + 1));
        }
    }
    Ok(files)
}

/// Adds the files under `base/rel` to `files`, keyed by their `/`-separated path relative to `base`.
fn list_files(base: &Path, rel: &Path, files: &mut BTreeMap<String, PathBuf>) -> Result<(), String> {
    let dir = base.join(rel);
    let entries = match fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("cannot read {}: {e}", dir.display())),
    };
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        let rel = rel.join(entry.file_name());
        let kind = entry.file_type().map_err(|e| format!("{}: {e}", rel.display()))?;
        if kind.is_dir() {
            list_files(base, &rel, files)?;
        } else {
            let key = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            files.insert(key, base.join(&rel));
        }
    }
    Ok(())
}

/// Copies the directory tree `from` to `to` (which must not exist); a missing `from` copies nothing.
/// Anything but directories and regular files (a symlink, say) is an error: upstream has none.
fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    let entries = match fs::read_dir(from) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("cannot read {}: {e}", from.display())),
    };
    fs::create_dir(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read {}: {e}", from.display()))?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type().map_err(|e| format!("{}: {e}", src.display()))?;
        if kind.is_dir() {
            copy_dir(&src, &dst)?;
        } else if kind.is_file() {
            fs::copy(&src, &dst).map_err(|e| format!("cannot copy {}: {e}", src.display()))?;
        } else {
            return Err(format!("{}: not a regular file or directory", src.display()));
        }
    }
    Ok(())
}

/// A `git` command run in `dir`, isolated from the user's configuration and from any repository
/// around `dir`: inside a work tree, `git apply` takes the patch's paths relative to the top of the
/// work tree and silently skips (with exit status 0) every file outside the current directory.
fn git(dir: &Path) -> Command {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let mut cmd = Command::new("git");
    for var in ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_PREFIX", "GIT_OBJECT_DIRECTORY"] {
        cmd.env_remove(var);
    }
    cmd.env("GIT_CONFIG_NOSYSTEM", "1").env("GIT_CONFIG_GLOBAL", "/dev/null");
    if let Some(parent) = dir.parent() {
        cmd.env("GIT_CEILING_DIRECTORIES", parent);
    }
    cmd.current_dir(dir);
    cmd
}

/// Whether `git` runs. Prints "skipped: git not found" if not, or panics when
/// `PATCHMAP_REQUIRE_TOOLS=1`.
fn git_found() -> bool {
    support::host_has(Command::new("git").arg("--version").output().is_ok_and(|o| o.status.success()), "git")
}

/// The published archives in cargo's download cache, checked against
/// `vendor/upstream-crates.sha256`, or `None` after printing why the test is skipped.
fn cached_archives() -> Option<Vec<PathBuf>> {
    let Some(cargo_home) = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))
    else {
        support::host_has(false, "a cargo download cache (neither CARGO_HOME nor HOME is set)");
        return None;
    };
    let sums = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("vendor/upstream-crates.sha256")).unwrap();
    let sums = parse_manifest(&sums).unwrap();
    let registries =
        fs::read_dir(cargo_home.join("registry/cache")).map(|d| d.flatten().map(|e| e.path()).collect::<Vec<_>>());
    let mut found = Vec::new();
    for (krate, version) in CRATES {
        let name = format!("{krate}-{version}.crate");
        let want = &sums[&name];
        let archive = registries
            .iter()
            .flatten()
            .map(|r| r.join(&name))
            .find(|a| fs::read(a).is_ok_and(|data| to_hex(&sha256(&data)) == *want));
        match archive {
            Some(a) => found.push(a),
            None => {
                let what = format!("{name} with sha256 {want} in {}/registry/cache", cargo_home.display());
                support::host_has(false, &what);
                return None;
            }
        }
    }
    Some(found)
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn sha256(data: &[u8]) -> [u8; 32] {
    sha2::Sha256::digest(data).into()
}
