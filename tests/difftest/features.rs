//! Constructs the generator can emit that accc may not compile yet.
//!
//! `Features::ACCC` is the set the CI test uses: what accc compiles today. When the
//! front end learns a construct, turn it on there (one line). Every construct is
//! generated and checked with plain `cc` and the sanitizers under `Features::ALL`
//! (`generated_c_is_valid_and_ub_free`), so switching one on only adds accc to the
//! picture.
//!
//! A feature that is off draws nothing from the generator's random stream, so the
//! programs of a feature set stay the same when features are added: `LEGACY` (the
//! set before the race-hunting shapes) still gives the programs whose seeds are in
//! `REGRESSION_SEEDS`.

/// Declares the feature flags once: the struct, its constants and the name table.
macro_rules! features {
    ($($(#[doc = $doc:literal])* $name:ident: accc $accc:literal, legacy $legacy:literal;)*) => {
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Features {
            $($(#[doc = $doc])* pub $name: bool,)*
        }

        impl Features {
            /// What accc compiles today (the CI test's set).
            pub const ACCC: Features = Features { $($name: $accc,)* };
            /// Everything the generator can emit.
            pub const ALL: Features = Features { $($name: true,)* };
            /// Nothing beyond the core language.
            pub const NONE: Features = Features { $($name: false,)* };
            /// The CI set before the race-hunting shapes were added: the feature set
            /// of the programs of the older `REGRESSION_SEEDS`.
            pub const LEGACY: Features = Features { $($name: $legacy,)* };

            /// (name, on) for every feature, for headers and reports.
            pub fn list(&self) -> Vec<(&'static str, bool)> {
                vec![$((stringify!($name), self.$name),)*]
            }

            /// The flag called `name`.
            fn flag(&mut self, name: &str) -> Option<&mut bool> {
                match name {
                    $(stringify!($name) => Some(&mut self.$name),)*
                    _ => None,
                }
            }

            /// The features on in either.
            pub fn union(&self, other: &Features) -> Features {
                Features { $($name: self.$name || other.$name,)* }
            }
        }
    };
}

features! {
    /// `do { ... } while (c);` loops in compute regions.
    do_while: accc true, legacy true;
    /// `switch` with `case`s that fall through and `break`s.
    switch: accc true, legacy true;
    /// Local struct variables and their members in compute regions.
    structs: accc true, legacy true;
    /// Calls of `#pragma acc routine seq` functions in compute regions.
    routine: accc true, legacy true;
    /// Local fixed-size arrays declared in compute regions (assigned element-wise).
    local_arrays: accc true, legacy true;
    /// Initialiser lists for local arrays and structs (`int t[3] = {a, b};`).
    init_lists: accc true, legacy true;
    /// Two-dimensional global arrays `T m[R][C]`.
    multi_dim: accc true, legacy true;
    /// Multi-dimensional sub-arrays in data clauses (`copy(m[0:R][0:C])`).
    multi_dim_subarrays: accc true, legacy true;
    /// `collapse(2)` on a loop nest.
    collapse: accc true, legacy false;
    /// `reduction(op:vars)` on gang, worker, vector and combined loops, every
    /// operator on every type it applies to, several variables per clause.
    reductions: accc true, legacy false;
    /// `parallel reduction(op:var)` on the compute construct itself, around
    /// `loop gang` loops.
    construct_reductions: accc true, legacy false;
    /// A gang loop and its inner worker or vector loop both reducing into the
    /// same variable.
    nested_reductions: accc true, legacy false;
    /// `loop gang private(t)` rows whose inner worker/vector loop reduces into `t`,
    /// then every worker of the gang reads `t`.
    private_reductions: accc true, legacy false;
    /// More `loop worker` shapes: `parallel loop worker`, `loop gang worker`
    /// rows over `loop vector` columns, `loop worker` columns.
    worker_loops: accc true, legacy false;
    /// Scalars declared outside the region, assigned before they are read in every
    /// iteration (the compiler privatises them, or `private(t)` says so).
    private_scalars: accc true, legacy false;
    /// `#pragma acc atomic update` of shared counters and histogram bins.
    atomics: accc true, legacy false;
    /// `num_gangs`, `num_workers`, `vector_length` of many sizes (odd, prime, 1,
    /// 1000, 1024), as constants, variables or expressions.
    launch_shapes: accc true, legacy false;
    /// Launch sizes beyond the device (`num_workers(16) vector_length(128)`):
    /// accc must fit them to the device.
    oversized_launch: accc true, legacy false;
    /// Problem sizes 1, 31, 32, 33, 1023, 1025 and loops whose trip count is a
    /// run-time value (0, 1, N - 1, ...).
    odd_sizes: accc true, legacy false;
}

impl Features {
    /// The names of the features that are on, space-separated (`none` for none).
    pub fn names(&self) -> String {
        let on: Vec<&str> = self
            .list()
            .iter()
            .filter(|(_, on)| *on)
            .map(|(n, _)| *n)
            .collect();
        if on.is_empty() {
            "none".to_string()
        } else {
            on.join(" ")
        }
    }

    /// The spelling of this set that `parse` reads back: empty for `ACCC`, else
    /// `none` followed by the names that are on.
    pub fn spec(&self) -> String {
        if *self == Features::ACCC {
            String::new()
        } else if *self == Features::NONE {
            "none".to_string()
        } else {
            format!("none {}", self.names())
        }
    }

    /// A feature set as `ACCC_DIFFTEST_FEATURES` takes it: words separated by commas
    /// or spaces, applied in order to `ACCC`: `all`, `none`, `accc`, `legacy` start
    /// again from that set, `name` turns a feature on, `-name` turns it off.
    pub fn parse(spec: &str) -> Result<Features, String> {
        let mut f = Features::ACCC;
        for word in spec.split([',', ' ']).filter(|w| !w.is_empty()) {
            match word {
                "all" => f = Features::ALL,
                "none" => f = Features::NONE,
                "accc" => f = Features::ACCC,
                "legacy" => f = Features::LEGACY,
                _ => {
                    let (name, on) = match word.strip_prefix('-') {
                        Some(n) => (n, false),
                        None => (word, true),
                    };
                    let flag = f.flag(name).ok_or_else(|| {
                        format!(
                            "unknown feature `{name}` (known: {})",
                            Features::ALL.names()
                        )
                    })?;
                    *flag = on;
                }
            }
        }
        Ok(f)
    }

    /// Every feature on in `self` is on in `other`.
    pub fn within(&self, other: &Features) -> bool {
        self.list()
            .iter()
            .zip(other.list())
            .all(|((_, a), (_, b))| !a || b)
    }
}

#[cfg(test)]
mod tests {
    use super::Features;

    #[test]
    fn specs_read_back() {
        for f in [
            Features::ACCC,
            Features::ALL,
            Features::NONE,
            Features::LEGACY,
        ] {
            assert_eq!(Features::parse(&f.spec()), Ok(f), "{}", f.spec());
        }
        let mut f = Features::ACCC;
        f.atomics = false;
        assert_eq!(Features::parse("-atomics"), Ok(f));
        assert_eq!(
            Features::parse("none,switch").map(|f| f.names()),
            Ok("switch".into())
        );
        assert!(Features::parse("nonsense").is_err());
    }
}
