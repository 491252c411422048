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

impl Bar {
    /// A spinner with the elapsed time for a stage that reports no progress of its own
    /// (a period search, a sweep); cleared by [`Progress::finish`].
    pub fn busy(&self, what: &str) {
        if let Some(b) = &self.bar {
            b.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            b.unset_length();
            b.set_style(
                ProgressStyle::with_template(&format!("{{elapsed_precise}} {{spinner}} {what}"))
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            b.enable_steady_tick(std::time::Duration::from_millis(200));
        }
    }
}

impl Progress for Bar {
    fn start(&self, total: u64, what: &str) {
        if let Some(b) = &self.bar {
            b.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            b.set_position(0);
            b.set_message("");
            if total == 0 {
                // Unknown amount of work: a spinner with the count so far.
                b.unset_length();
                b.set_style(
                    ProgressStyle::with_template(&format!(
                        "{{elapsed_precise}} {{spinner}} {{pos}} {what} {{msg}}"
                    ))
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                );
                b.enable_steady_tick(std::time::Duration::from_millis(200));
            } else {
                b.disable_steady_tick();
                b.set_length(total);
                b.set_style(
                    ProgressStyle::with_template(&format!(
                        "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {what} (eta {{eta}})"
                    ))
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
                );
            }
        }
    }
    fn advance(&self, delta: u64) {
        if let Some(b) = &self.bar {
            b.inc(delta);
        }
    }
    fn status(&self, text: &str) {
        if let Some(b) = &self.bar {
            b.set_message(text.to_string());
        }
    }
    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.disable_steady_tick();
            b.finish_and_clear();
        }
    }
}
