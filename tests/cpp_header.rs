// SPDX-License-Identifier: MIT OR Apache-2.0
//! include/tensorcast.hpp, the C++ layer, is written by hand over the generated C header.
//! Its enumerations must cover the C ones: every constant of every C enumeration table
//! (the dtypes, statuses, casting levels, round modes, text formats, bitcast and numpy
//! rules) has exactly one enumerator in it, defined as that constant. The layer's
//! behaviour is tested in C++ (tests/cpp/, run by CTest under C++17 and C++20).

use tensorcast::c_tables;

const HPP: &str = include_str!("../include/tensorcast.hpp");

#[test]
fn every_c_enumeration_constant_has_one_cpp_enumerator() {
    let mut checked = 0;
    for table in c_tables() {
        if table.rust_name == "DlpackCode" {
            // DLPack codes are an interchange format, converted by tcast_dtype_from_dlpack:
            // the C++ layer does not wrap them.
            continue;
        }
        for constant in table.consts {
            let definition = format!(" = {},\n", constant.name);
            assert_eq!(
                HPP.matches(&definition).count(),
                1,
                "include/tensorcast.hpp: {} ({}) needs exactly one enumerator `name{}`",
                constant.name,
                table.rust_name,
                definition.trim_end()
            );
            checked += 1;
        }
    }
    // And no enumerator names a constant the C header does not have.
    let defined: Vec<&str> = HPP
        .lines()
        .map(str::trim)
        .filter(|line| line.ends_with(','))
        .filter_map(|line| line.split_once(" = TCAST_"))
        .map(|(_, rest)| rest.trim_end_matches(','))
        .collect();
    assert_eq!(
        defined.len(),
        checked,
        "enumerators defined from TCAST_ constants"
    );
    println!("{checked} C constants have their C++ enumerator");
}
