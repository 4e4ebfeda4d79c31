//! The paper's difficulty curve: mean reachable states per level on a
//! logarithmic axis, with bars from the smallest to the largest board of
//! the level, drawn with `plotters` into a PNG.

use std::path::Path;

use plotters::prelude::*;

use super::bench::LevelFigures;

/// Why a plot could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the plot {path}: {why}")]
pub struct PlotError {
    /// The PNG asked for.
    pub path: String,
    /// What went wrong (file, font or drawing).
    pub why: String,
}

/// Draws reachable states per level (mean line, min..max bars) to `path`.
pub fn plot_levels(levels: &[LevelFigures], path: &Path) -> Result<(), PlotError> {
    let err = |e: &dyn std::fmt::Display| PlotError {
        path: path.display().to_string(),
        why: e.to_string(),
    };
    if levels.is_empty() {
        return Err(err(&"no levels to plot"));
    }
    let first = levels.first().map_or(1, |l| l.level);
    let last = levels.last().map_or(1, |l| l.level);
    let top = levels
        .iter()
        .map(|l| l.max_reachable)
        .max()
        .unwrap_or(1)
        .max(10) as f64;
    let root = BitMapBackend::new(path, (1000, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Fling!: reachable states per level", ("sans-serif", 28))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(80)
        .build_cartesian_2d(
            (first as f64 - 0.5)..(last as f64 + 0.5),
            (1f64..top * 2.0).log_scale(),
        )
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("level")
        .y_desc("reachable states (log)")
        .x_labels(((last - first) as usize + 1).min(36))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(|e| err(&e))?;
    let bars = levels.iter().map(|l| {
        let x = l.level as f64;
        PathElement::new(
            vec![
                (x, (l.min_reachable.max(1)) as f64),
                (x, l.max_reachable.max(1) as f64),
            ],
            BLUE.mix(0.5).stroke_width(3),
        )
    });
    chart.draw_series(bars).map_err(|e| err(&e))?;
    chart
        .draw_series(LineSeries::new(
            levels
                .iter()
                .map(|l| (l.level as f64, l.mean_reachable.max(1.0))),
            RED.stroke_width(2),
        ))
        .map_err(|e| err(&e))?
        .label("mean")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED.stroke_width(2)));
    chart
        .draw_series(
            levels
                .iter()
                .map(|l| Circle::new((l.level as f64, l.mean_reachable.max(1.0)), 3, RED.filled())),
        )
        .map_err(|e| err(&e))?;
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}
