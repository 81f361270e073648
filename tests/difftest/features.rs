//! Constructs the generator can emit that accc may not compile yet.
//!
//! `Features::ACCC` is the set the CI test uses: what accc compiles today. When the
//! front end learns a construct, turn it on there (one line). Every construct is
//! generated and checked with plain `cc` and the sanitizers under `Features::ALL`
//! (`generated_c_is_valid_and_ub_free`), so switching one on only adds accc to the
//! picture.

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// `do { ... } while (c);` loops in compute regions.
    pub do_while: bool,
    /// `switch` with `case`s that fall through and `break`s.
    pub switch: bool,
    /// Local struct variables and their members in compute regions.
    pub structs: bool,
    /// Calls of `#pragma acc routine seq` functions in compute regions.
    pub routine: bool,
    /// Local fixed-size arrays declared in compute regions (assigned element-wise).
    pub local_arrays: bool,
    /// Initialiser lists for local arrays and structs (`int t[3] = {a, b};`).
    pub init_lists: bool,
    /// Two-dimensional global arrays `T m[R][C]`.
    pub multi_dim: bool,
    /// Multi-dimensional sub-arrays in data clauses (`copy(m[0:R][0:C])`).
    pub multi_dim_subarrays: bool,
    /// `collapse(2)` on a loop nest.
    pub collapse: bool,
}

impl Features {
    /// What accc compiles today (the CI test's set).
    pub const ACCC: Features = Features {
        do_while: true,
        switch: true,
        structs: true,
        routine: true,
        local_arrays: true,
        init_lists: true,
        multi_dim: true,
        multi_dim_subarrays: true,
        collapse: false,
    };

    /// Everything the generator can emit.
    pub const ALL: Features = Features {
        do_while: true,
        switch: true,
        structs: true,
        routine: true,
        local_arrays: true,
        init_lists: true,
        multi_dim: true,
        multi_dim_subarrays: true,
        collapse: true,
    };

    /// Nothing beyond the core language.
    pub const NONE: Features = Features {
        do_while: false,
        switch: false,
        structs: false,
        routine: false,
        local_arrays: false,
        init_lists: false,
        multi_dim: false,
        multi_dim_subarrays: false,
        collapse: false,
    };

    /// (name, on) for every feature, for headers and reports.
    pub fn list(&self) -> [(&'static str, bool); 9] {
        [
            ("do_while", self.do_while),
            ("switch", self.switch),
            ("structs", self.structs),
            ("routine", self.routine),
            ("local_arrays", self.local_arrays),
            ("init_lists", self.init_lists),
            ("multi_dim", self.multi_dim),
            ("multi_dim_subarrays", self.multi_dim_subarrays),
            ("collapse", self.collapse),
        ]
    }

    /// The names of the features that are on, space-separated (`-` for none).
    pub fn names(&self) -> String {
        let on: Vec<&str> = self
            .list()
            .iter()
            .filter(|(_, on)| *on)
            .map(|(n, _)| *n)
            .collect();
        if on.is_empty() {
            "-".to_string()
        } else {
            on.join(" ")
        }
    }

    /// `all`, `none`, `accc`, or names of features to turn on in addition to
    /// `ACCC` (separated by commas or spaces), as `ACCC_DIFFTEST_FEATURES` takes them.
    pub fn parse(spec: &str) -> Result<Features, String> {
        match spec.trim() {
            "all" => return Ok(Features::ALL),
            "none" => return Ok(Features::NONE),
            "accc" | "" => return Ok(Features::ACCC),
            _ => {}
        }
        let mut f = Features::ACCC;
        for name in spec.split([',', ' ']).filter(|n| !n.is_empty()) {
            let flag = match name {
                "do_while" => &mut f.do_while,
                "switch" => &mut f.switch,
                "structs" => &mut f.structs,
                "routine" => &mut f.routine,
                "local_arrays" => &mut f.local_arrays,
                "init_lists" => &mut f.init_lists,
                "multi_dim" => &mut f.multi_dim,
                "multi_dim_subarrays" => &mut f.multi_dim_subarrays,
                "collapse" => &mut f.collapse,
                _ => {
                    return Err(format!(
                        "unknown feature `{name}` (known: {})",
                        Features::ALL.names()
                    ))
                }
            };
            *flag = true;
        }
        Ok(f)
    }

    /// The features on in either.
    pub fn union(&self, other: &Features) -> Features {
        Features {
            do_while: self.do_while || other.do_while,
            switch: self.switch || other.switch,
            structs: self.structs || other.structs,
            routine: self.routine || other.routine,
            local_arrays: self.local_arrays || other.local_arrays,
            init_lists: self.init_lists || other.init_lists,
            multi_dim: self.multi_dim || other.multi_dim,
            multi_dim_subarrays: self.multi_dim_subarrays || other.multi_dim_subarrays,
            collapse: self.collapse || other.collapse,
        }
    }

    /// Every feature on in `self` is on in `other`.
    pub fn within(&self, other: &Features) -> bool {
        self.list()
            .iter()
            .zip(other.list())
            .all(|((_, a), (_, b))| !a || b)
    }
}
