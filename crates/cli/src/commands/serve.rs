//! `nimlab serve`: the web explorer (the `serve` feature, on by default).

use super::Context;
use crate::Status;
use nimlab_engine::{Error, Result};
use std::io::Write;

/// Serve the web explorer: one page and a JSON API (docs/json.md).
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab serve                 # http://127.0.0.1:8080/\n  nimlab serve --port 0        # any free port (printed)\n  nimlab serve --bind 0.0.0.0  # reachable from other machines"
)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on; other than 127.0.0.1 only when you mean others to reach it.
    #[arg(long, default_value = "127.0.0.1")]
    bind: std::net::IpAddr,
}

pub fn serve(ctx: &Context, args: ServeArgs) -> Result<Status> {
    // Writing to a socket whose client left must not end the server.
    #[cfg(unix)]
    // SAFETY: changing a signal disposition before the server's threads start.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    let config = nimlab_web::ServeConfig {
        memory_limit: nimlab_engine::MemoryLimit::new(
            ctx.memory_limit
                .bytes()
                .min(nimlab_web::ServeConfig::default().memory_limit.bytes()),
        ),
        ..nimlab_web::ServeConfig::default()
    };
    let addr = std::net::SocketAddr::new(args.bind, args.port);
    nimlab_web::serve(addr, config, |a| {
        println!("nimlab explorer on http://{a}/ (Ctrl-C to stop)");
        let _ = std::io::stdout().flush();
    })
    .map_err(|e| Error::io(format!("cannot serve on {addr}"), e))?;
    Ok(Status::Ok)
}
