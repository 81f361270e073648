//! Empty: this package exists so that cargo fetches the sources (see Cargo.toml).
