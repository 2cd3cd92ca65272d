//! `modsolve serve [DIR]`: the playground's server ([`crate::serve`]) on the address asked
//! for; its URL, with the API's random token (`?token=…`) unless `--no-token`, is the first
//! line on standard output.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use super::args::ServeArgs;
use super::output::{Failure, Kind, Output};

/// The server, as the command line asks for it.
pub(crate) struct Request {
    dir: PathBuf,
    addr: SocketAddr,
    budget: Duration,
    timeout: Duration,
    max_queue: usize,
    jobs: Option<u16>,
    max_body: u64,
    max_memory: Option<u64>,
    no_token: bool,
    allow_host: Vec<String>,
}

impl From<ServeArgs> for Request {
    fn from(args: ServeArgs) -> Self {
        Request {
            dir: args.dir,
            addr: SocketAddr::new(args.host, args.port),
            budget: args.budget,
            timeout: args.timeout,
            max_queue: args.max_queue,
            jobs: args.jobs,
            max_body: args.max_body,
            max_memory: args.max_memory,
            no_token: args.no_token,
            allow_host: args.allow_host,
        }
    }
}

/// The glibc setting under which freed blocks of a megabyte or more go back to the system.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: &str = "glibc.malloc.mmap_threshold=1048576";

/// A long-running server must give back what a burst of requests took: glibc's allocator, left
/// to itself, raises its threshold for mapping blocks to the largest block freed, and then keeps
/// such blocks in its heaps for reuse (ten 10 MiB requests left the server at 147 MiB; with the
/// threshold fixed at 1 MiB, 22 MiB). The threshold can only be set before the process starts,
/// so the server starts itself again with it (same arguments, same process id). Elsewhere, or
/// when that fails, it serves as it is.
fn give_memory_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::os::unix::process::CommandExt;
        let tunables = std::env::var("GLIBC_TUNABLES").unwrap_or_default();
        if tunables.contains("glibc.malloc.mmap_threshold") {
            return;
        }
        let Ok(exe) = std::env::current_exe() else { return };
        let joined = if tunables.is_empty() {
            MMAP_THRESHOLD.to_string()
        } else {
            format!("{tunables}:{MMAP_THRESHOLD}")
        };
        // exec returns only when it failed; then the server runs in this process.
        let _ = std::process::Command::new(exe)
            .args(std::env::args_os().skip(1))
            .env("GLIBC_TUNABLES", joined)
            .exec();
    }
}

/// Serves until the process is stopped; exit 2 when DIR is not a directory or the address
/// cannot be bound.
pub(crate) fn run(request: Request) -> Result<Output, Failure> {
    if !request.dir.is_dir() {
        let message = format!("error: {} is not a directory\n", request.dir.display());
        return Err(Failure::plain(Kind::Usage, message, false));
    }
    give_memory_back();
    if !request.addr.ip().is_loopback() {
        eprintln!(
            "warning: listening on {}: other machines can reach the playground and read and write the files of {}",
            request.addr.ip(),
            request.dir.display()
        );
    }
    let mut config = crate::serve::Config::new(&request.dir);
    config.budget = request.budget;
    config.max_body = usize::try_from(request.max_body).unwrap_or(usize::MAX);
    config.timeout = request.timeout;
    config.max_queue = request.max_queue;
    if let Some(jobs) = request.jobs {
        config.jobs = usize::from(jobs);
    }
    config.max_memory = request.max_memory;
    config.allowed_hosts = request.allow_host;
    if request.no_token {
        config.token = None;
    }
    let query = config.token.as_ref().map(|t| format!("?token={t}")).unwrap_or_default();
    let dir = request.dir.display().to_string();
    crate::serve::run(config, request.addr, |addr| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "http://{addr}/{query}");
        let _ = out.flush();
        eprintln!("modsolve serve: the playground on {dir}; stop it with Ctrl-C");
    })
    .map_err(|e| {
        Failure::plain(Kind::Io, format!("error: cannot serve on {}: {e}\n", request.addr), false)
    })?;
    Ok(Output { body: super::output::Body::Text(String::new()), code: 0 })
}
