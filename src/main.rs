//! The `modsolve` command: a thin layer over the library. [`cli::parse`] reads the command line
//! into one mode (a request in the library's terms); `main` runs it, then prints one output or
//! one failure and exits with its code, in one place.
//!
//! Exit codes: 0 solved (or all checks passed), 1 no solution (or a failed check, or an internal
//! error), 2 bad input, usage or over the memory limit, 3 undecided (the timeout came first);
//! a failure's code comes from its kind ([`kind::Kind::exit_code`]).

mod cli;
mod kind;
mod page;
#[cfg(feature = "serve")]
mod serve;

use std::process::ExitCode;

use cli::Mode;

fn main() -> ExitCode {
    let started = std::time::Instant::now();
    let mode = match cli::parse() {
        Ok(mode) => mode,
        Err(failure) => return failure.print(),
    };
    let json = mode.json();
    // The timeout bounds the printing too, within the bound the library keeps for the work.
    let deadline = mode.timeout().map(|t| started + modsolve::bounded::bound(t));
    let result = match mode {
        Mode::Solve(request) => cli::solve::run(&request),
        Mode::Check(request) => cli::check::run(&request),
        Mode::Histogram(request) => cli::check::histogram(&request),
        Mode::Distribution(request) => cli::check::distribution(&request),
        Mode::Generate(request) => cli::generate::run(&request),
        Mode::Hint(request) => cli::hint::run(&request),
        Mode::Export(request) => cli::export::run(&request),
        #[cfg(feature = "serve")]
        Mode::Serve(request) => cli::serve::run(request),
        Mode::New(spec) => cli::new(&spec),
        Mode::Completions(shell) => Ok(cli::completions(shell)),
        Mode::Man(subcommand) => cli::man(subcommand.as_deref()),
        Mode::Combine(request) => cli::shard::combine(&request),
    };
    match result {
        Ok(output) => output.print(deadline),
        Err(failure) => failure.in_json(json).print(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory;
        super::cli::args::Cli::command().debug_assert();
    }
}
