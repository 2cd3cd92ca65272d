//! Chainable setters for the option types a library user builds.
//!
//! The option types are `#[non_exhaustive]`, so that a new option is not a breaking change:
//! outside this crate they are made from `Default` and set field by field, either by assigning
//! the public fields or with these setters, one per field and named after it:
//!
//! ```
//! use modsolve::{Budget, Objective, Options};
//!
//! let options = Options::default().objective(Objective::Max).budget(Budget::of_nodes(1_000_000));
//! assert_eq!(options.objective, Objective::Max);
//! ```

use std::time::{Duration, Instant};

use crate::analysis::{Engine, Options};
use crate::bounded::Budget;
use crate::check::CheckOptions;
use crate::difficulty::DistributionOptions;
use crate::export::ExportOptions;
use crate::generate::{Spec, StrategyRequirement};
use crate::hint::HintOptions;
use crate::solve::Objective;

/// `pub fn field(mut self, value: T) -> Self` for each `field: T` listed.
macro_rules! setters {
    ($type:ty { $($(#[$doc:meta])* $field:ident: $value:ty,)* }) => {
        impl $type {
            $(
                $(#[$doc])*
                #[must_use]
                pub fn $field(mut self, value: $value) -> Self {
                    self.$field = value;
                    self
                }
            )*
        }
    };
}

setters!(Options {
    /// Sets [`Options::engine`].
    engine: Engine,
    /// Sets [`Options::objective`].
    objective: Objective,
    /// Sets [`Options::budget`].
    budget: Budget,
    /// Sets [`Options::timeout`].
    timeout: Option<Duration>,
    /// Sets [`Options::list_all`].
    list_all: bool,
    /// Sets [`Options::list_limit`].
    list_limit: usize,
    /// Sets [`Options::max_memory`].
    max_memory: Option<u64>,
    /// Sets [`Options::compact_from`].
    compact_from: usize,
});

setters!(Budget {
    /// Sets [`Budget::nodes`].
    nodes: u64,
    /// Sets [`Budget::time`].
    time: Option<Duration>,
});

setters!(CheckOptions {
    /// Sets [`CheckOptions::budget`].
    budget: Budget,
    /// Sets [`CheckOptions::timeout`].
    timeout: Option<Duration>,
    /// Sets [`CheckOptions::max_memory`].
    max_memory: Option<u64>,
});

setters!(HintOptions {
    /// Sets [`HintOptions::analysis`].
    analysis: Options,
    /// Sets [`HintOptions::steps`].
    steps: bool,
});

setters!(ExportOptions {
    /// Sets [`ExportOptions::analysis`].
    analysis: Options,
    /// Sets [`ExportOptions::mean_par`].
    mean_par: bool,
});

setters!(DistributionOptions {
    /// Sets [`DistributionOptions::exact_limit`].
    exact_limit: u64,
    /// Sets [`DistributionOptions::samples`].
    samples: usize,
    /// Sets [`DistributionOptions::seed`].
    seed: u64,
    /// Sets [`DistributionOptions::nodes_per_sample`].
    nodes_per_sample: u64,
    /// Sets [`DistributionOptions::work`].
    work: Option<u64>,
    /// Sets [`DistributionOptions::deadline`].
    deadline: Option<Instant>,
    /// Sets [`DistributionOptions::timeout`].
    timeout: Option<Duration>,
    /// Sets [`DistributionOptions::max_memory`].
    max_memory: Option<u64>,
    /// Sets [`DistributionOptions::confidence`].
    confidence: f64,
});

setters!(Spec {
    /// Sets [`Spec::count`].
    count: usize,
    /// Sets [`Spec::seed`].
    seed: u64,
    /// Sets [`Spec::unique`].
    unique: bool,
    /// Sets [`Spec::par`].
    par: Option<(u64, u64)>,
    /// Sets [`Spec::strategy`].
    strategy: Option<StrategyRequirement>,
    /// Sets [`Spec::attempts`].
    attempts: usize,
    /// Sets [`Spec::nodes_per_level`].
    nodes_per_level: u64,
    /// Sets [`Spec::scramble`].
    scramble: Option<u64>,
    /// Sets [`Spec::deny_warnings`].
    deny_warnings: bool,
    /// Sets [`Spec::work`].
    work: Option<u64>,
});
