//! SV-COMP task files for the generated scenarios, and the directory layout they are written in.
//!
//! Layout under a root `DIR` (the one `qicc-study generate --out DIR` fills):
//! `DIR/<kernel>/<stem>.c`, `DIR/<kernel>/<stem>.yml` and one shared property file
//! `DIR/properties/unreach-call.prp`, which every task names by the relative path
//! `../properties/unreach-call.prp` — so the directory can be moved and every SV-COMP tool reads
//! the tasks as they are.

use crate::structures::Scenario;
use std::io;
use std::path::{Path, PathBuf};

/// The property directory's name under the root.
pub const PROPERTY_DIR: &str = "properties";
/// The property file's name.
pub const PROPERTY_FILE: &str = "unreach-call.prp";
/// SV-COMP's `unreach-call` property.
pub const UNREACH_CALL: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n";

/// The task file (format 2.0) for the C file `c_file_name` (relative to the task file).
pub fn task_yml(c_file_name: &str, expected_verdict: bool) -> String {
    format!(
        "format_version: '2.0'\n\
         input_files: '{c_file_name}'\n\
         properties:\n  \
           - property_file: ../{PROPERTY_DIR}/{PROPERTY_FILE}\n    \
             expected_verdict: {expected_verdict}\n\
         options:\n  \
           language: C\n  \
           data_model: ILP32\n"
    )
}

/// Where one scenario was written.
#[derive(Clone, Debug)]
pub struct Written {
    pub c_file: PathBuf,
    pub yml_file: PathBuf,
}

/// Writes the property file under `root` (idempotent).
pub fn write_property_file(root: &Path) -> io::Result<PathBuf> {
    let dir = root.join(PROPERTY_DIR);
    std::fs::create_dir_all(&dir)?;
    let path = dir.join(PROPERTY_FILE);
    std::fs::write(&path, UNREACH_CALL)?;
    Ok(path)
}

/// Writes `scenario`'s C file and task file under `root/<kernel>/`.
pub fn write_scenario(root: &Path, scenario: &Scenario) -> io::Result<Written> {
    let dir = root.join(scenario.kernel);
    std::fs::create_dir_all(&dir)?;
    let stem = scenario.stem();
    let c_name = format!("{stem}.c");
    let c_file = dir.join(&c_name);
    let yml_file = dir.join(format!("{stem}.yml"));
    std::fs::write(&c_file, &scenario.c_source)?;
    std::fs::write(&yml_file, task_yml(&c_name, scenario.expected_verdict))?;
    Ok(Written { c_file, yml_file })
}

/// Writes the property file and every scenario; the result is in `scenarios` order.
pub fn write_all(root: &Path, scenarios: &[Scenario]) -> io::Result<Vec<Written>> {
    write_property_file(root)?;
    scenarios.iter().map(|s| write_scenario(root, s)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_file_matches_the_sv_comp_layout() {
        assert_eq!(
            task_yml("single1_small.c", false),
            "format_version: '2.0'\n\
             input_files: 'single1_small.c'\n\
             properties:\n\
             \x20 - property_file: ../properties/unreach-call.prp\n\
             \x20   expected_verdict: false\n\
             options:\n\
             \x20 language: C\n\
             \x20 data_model: ILP32\n"
        );
    }
}
