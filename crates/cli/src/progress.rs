//! A progress bar on stderr when stderr is a terminal; silence otherwise.

use indicatif::{ProgressBar, ProgressStyle};
use nimlab_engine::Progress;
use std::io::IsTerminal;

/// [`Progress`] shown with indicatif.
pub struct Bar {
    bar: Option<ProgressBar>,
}

impl Bar {
    /// A bar if stderr is a terminal, else a silent sink.
    pub fn new() -> Self {
        Bar {
            bar: std::io::stderr().is_terminal().then(ProgressBar::hidden),
        }
    }
}

impl Progress for Bar {
    fn start(&self, total: u64, what: &str) {
        if let Some(b) = &self.bar {
            b.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            b.set_length(total);
            b.set_position(0);
            b.set_style(
                ProgressStyle::with_template(&format!(
                    "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {what} (eta {{eta}})"
                ))
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
        }
    }
    fn advance(&self, delta: u64) {
        if let Some(b) = &self.bar {
            b.inc(delta);
        }
    }
    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
