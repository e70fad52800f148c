//! Small self-contained SVG charts for the results page: lines over a numeric x axis, and
//! grouped bars. Okabe-Ito colours (safe for colour-blind readers), dashed for seed values,
//! dotted for a second measure of ours on the same plot.

use std::fmt::Write;

const W: f64 = 640.0;
const H: f64 = 360.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 170.0;
const TOP: f64 = 36.0;
const BOTTOM: f64 = 48.0;
const COLOURS: [&str; 8] = [
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000",
];

/// How a line is drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stroke {
    /// What was measured here.
    Solid,
    /// A second measure of ours on the same plot (latency and overhead, say).
    Dotted,
    /// Numbers read from a paper rather than measured here.
    Dashed,
}

impl Stroke {
    /// The dash attributes of a line of palette colour `colour`. Dotted lines of neighbouring
    /// colours are dotted in turn, so where two lie on each other both show.
    fn dasharray(self, colour: usize) -> &'static str {
        match (self, colour % 2) {
            (Stroke::Solid, _) => "",
            (Stroke::Dotted, 0) => r#" stroke-dasharray="2 3""#,
            (Stroke::Dotted, _) => r#" stroke-dasharray="2 3" stroke-dashoffset="2.5""#,
            (Stroke::Dashed, _) => r#" stroke-dasharray="5 3""#,
        }
    }
}

pub struct Line {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    pub stroke: Stroke,
    /// Index into the palette, so ours and the seed's of one protocol share a colour.
    pub colour: usize,
}

impl Line {
    /// A line of what was measured here.
    pub fn ours(name: impl Into<String>, points: Vec<(f64, f64)>, colour: usize) -> Line {
        Line {
            name: name.into(),
            points,
            stroke: Stroke::Solid,
            colour,
        }
    }

    /// Drawn dotted: a second measure of ours beside a solid one of the same colour.
    pub fn dotted(self) -> Line {
        Line {
            stroke: Stroke::Dotted,
            ..self
        }
    }

    /// A line of numbers read from a paper (drawn dashed).
    pub fn seed(name: impl Into<String>, points: Vec<(f64, f64)>, colour: usize) -> Line {
        Line {
            name: name.into(),
            points,
            stroke: Stroke::Dashed,
            colour,
        }
    }
}

pub enum Plot {
    Lines {
        title: String,
        x_label: String,
        y_label: String,
        log_x: bool,
        log_y: bool,
        lines: Vec<Line>,
    },
    Bars {
        title: String,
        y_label: String,
        groups: Vec<String>,
        /// (name, one value per group, seed?)
        bars: Vec<(String, Vec<f64>, bool)>,
    },
}

struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
}

impl Axis {
    fn new(values: impl Iterator<Item = f64>, log: bool, from_zero: bool) -> Axis {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in values.filter(|v| v.is_finite() && (!log || *v > 0.0)) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
        if !lo.is_finite() {
            (lo, hi) = (0.0, 1.0);
        }
        if log {
            lo = 10f64.powf(lo.log10().floor());
            hi = 10f64.powf(hi.log10().ceil().max(lo.log10() + 1.0));
        } else {
            if from_zero {
                lo = lo.min(0.0);
            }
            if hi <= lo {
                hi = lo + 1.0;
            }
            let step = nice_step((hi - lo) / 5.0);
            lo = (lo / step).floor() * step;
            hi = (hi / step).ceil() * step;
        }
        Axis { lo, hi, log }
    }

    /// Position in [0, 1] along the axis.
    fn frac(&self, v: f64) -> f64 {
        if self.log {
            (v.max(self.lo).log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        }
    }

    fn ticks(&self) -> Vec<f64> {
        if self.log {
            let (a, b) = (
                self.lo.log10().round() as i32,
                self.hi.log10().round() as i32,
            );
            (a..=b).map(|e| 10f64.powi(e)).collect()
        } else {
            let step = nice_step((self.hi - self.lo) / 5.0);
            let n = ((self.hi - self.lo) / step).round() as i64;
            (0..=n).map(|i| self.lo + i as f64 * step).collect()
        }
    }
}

fn nice_step(raw: f64) -> f64 {
    let mag = 10f64.powf(raw.abs().max(1e-12).log10().floor());
    let r = raw / mag;
    mag * if r <= 1.0 {
        1.0
    } else if r <= 2.0 {
        2.0
    } else if r <= 5.0 {
        5.0
    } else {
        10.0
    }
}

fn label(v: f64) -> String {
    if v != 0.0 && (v.abs() >= 1e5 || v.abs() < 1e-3) {
        format!("{v:.0e}")
    } else if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').to_string()
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn frame(svg: &mut String, title: &str, x_label: &str, y_label: &str) {
    let _ = write!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" font-family="sans-serif" font-size="12"><rect width="100%" height="100%" fill="#fff"/><text x="{}" y="20" text-anchor="middle" font-size="14" font-weight="bold">{}</text><text x="{}" y="{}" text-anchor="middle">{}</text><text transform="translate(16 {}) rotate(-90)" text-anchor="middle">{}</text>"##,
        (LEFT + W - RIGHT) / 2.0,
        escape(title),
        (LEFT + W - RIGHT) / 2.0,
        H - 10.0,
        escape(x_label),
        (TOP + H - BOTTOM) / 2.0,
        escape(y_label),
    );
}

fn y_axis(svg: &mut String, y: &Axis) {
    for t in y.ticks() {
        let py = H - BOTTOM - y.frac(t) * (H - TOP - BOTTOM);
        let _ = write!(
            svg,
            r##"<line x1="{LEFT}" x2="{}" y1="{py:.1}" y2="{py:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{}</text>"##,
            W - RIGHT,
            LEFT - 6.0,
            py + 4.0,
            label(t)
        );
    }
}

fn legend(svg: &mut String, entries: &[(String, usize, Stroke)]) {
    for (i, (name, colour, stroke)) in entries.iter().enumerate() {
        let y = TOP + 8.0 + i as f64 * 18.0;
        let x = W - RIGHT + 12.0;
        let dash = stroke.dasharray(*colour);
        let _ = write!(
            svg,
            r##"<line x1="{x}" x2="{}" y1="{y}" y2="{y}" stroke="{}" stroke-width="2.5"{dash}/><text x="{}" y="{}">{}</text>"##,
            x + 22.0,
            COLOURS[colour % COLOURS.len()],
            x + 28.0,
            y + 4.0,
            escape(name)
        );
    }
}

pub fn render(plot: &Plot) -> String {
    let mut svg = String::new();
    let px = |frac_x: f64, frac_y: f64| {
        (
            LEFT + frac_x * (W - LEFT - RIGHT),
            H - BOTTOM - frac_y * (H - TOP - BOTTOM),
        )
    };
    match plot {
        Plot::Lines {
            title,
            x_label,
            y_label,
            log_x,
            log_y,
            lines,
        } => {
            frame(&mut svg, title, x_label, y_label);
            let all = || lines.iter().flat_map(|l| l.points.iter());
            let x = Axis::new(all().map(|p| p.0), *log_x, false);
            let y = Axis::new(all().map(|p| p.1), *log_y, true);
            y_axis(&mut svg, &y);
            for t in x.ticks() {
                let (tx, _) = px(x.frac(t), 0.0);
                let _ = write!(
                    svg,
                    r##"<text x="{tx:.1}" y="{}" text-anchor="middle">{}</text>"##,
                    H - BOTTOM + 16.0,
                    label(t)
                );
            }
            for line in lines {
                let colour = COLOURS[line.colour % COLOURS.len()];
                let dash = line.stroke.dasharray(line.colour);
                let path: Vec<String> = line
                    .points
                    .iter()
                    .filter(|p| p.0.is_finite() && p.1.is_finite())
                    .map(|&(a, b)| {
                        let (sx, sy) = px(x.frac(a), y.frac(b));
                        format!("{sx:.1},{sy:.1}")
                    })
                    .collect();
                let _ = write!(
                    svg,
                    r#"<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="{}"/>"#,
                    path.join(" ")
                );
                for p in &path {
                    let (cx, cy) = p.split_once(',').unwrap_or(("0", "0"));
                    let _ = write!(
                        svg,
                        r#"<circle cx="{cx}" cy="{cy}" r="3" fill="{colour}"/>"#
                    );
                }
            }
            let entries: Vec<_> = lines
                .iter()
                .map(|l| (l.name.clone(), l.colour, l.stroke))
                .collect();
            legend(&mut svg, &entries);
        }
        Plot::Bars {
            title,
            y_label,
            groups,
            bars,
        } => {
            frame(&mut svg, title, "", y_label);
            let y = Axis::new(bars.iter().flat_map(|b| b.1.iter().copied()), false, true);
            y_axis(&mut svg, &y);
            let group_w = 1.0 / groups.len().max(1) as f64;
            let bar_w = group_w * 0.8 / bars.len().max(1) as f64;
            for (g, name) in groups.iter().enumerate() {
                let (gx, _) = px((g as f64 + 0.5) * group_w, 0.0);
                let _ = write!(
                    svg,
                    r#"<text x="{gx:.1}" y="{}" text-anchor="middle">{}</text>"#,
                    H - BOTTOM + 16.0,
                    escape(name)
                );
                for (b, (_, values, seed)) in bars.iter().enumerate() {
                    let Some(&v) = values.get(g).filter(|v| v.is_finite()) else {
                        continue;
                    };
                    let left = g as f64 * group_w + group_w * 0.1 + b as f64 * bar_w;
                    let (x0, y0) = px(left, y.frac(v));
                    let (x1, base) = px(left + bar_w, y.frac(y.lo.max(0.0)));
                    let colour = COLOURS[b % COLOURS.len()];
                    let fill = if *seed {
                        format!(
                            r#"fill="none" stroke="{colour}" stroke-width="2"{}"#,
                            Stroke::Dashed.dasharray(b)
                        )
                    } else {
                        format!(r#"fill="{colour}""#)
                    };
                    let _ = write!(
                        svg,
                        r#"<rect x="{x0:.1}" y="{y0:.1}" width="{:.1}" height="{:.1}" {fill}/>"#,
                        (x1 - x0 - 2.0).max(1.0),
                        (base - y0).max(0.0)
                    );
                }
            }
            let entries: Vec<_> = bars
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    let stroke = if b.2 { Stroke::Dashed } else { Stroke::Solid };
                    (b.0.clone(), i, stroke)
                })
                .collect();
            legend(&mut svg, &entries);
        }
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_render_every_point_inside_the_plot_area() {
        let plot = Plot::Lines {
            title: "t <&>".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            log_x: false,
            log_y: true,
            lines: vec![Line::ours(
                "a",
                vec![(1.0, 0.5), (2.0, 30.0), (3.0, f64::NAN)],
                0,
            )],
        };
        let svg = render(&plot);
        assert!(svg.contains("t &lt;&amp;&gt;"));
        assert_eq!(svg.matches("<circle").count(), 2);
        for c in svg.split("<circle cx=\"").skip(1) {
            let x: f64 = c.split('"').next().unwrap().parse().unwrap();
            assert!((LEFT..=W - RIGHT).contains(&x), "{x}");
        }
    }

    #[test]
    fn a_second_measure_is_dotted_and_only_the_seeds_are_dashed() {
        let line = || vec![(1.0, 1.0), (2.0, 2.0)];
        let plot = Plot::Lines {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            log_x: false,
            log_y: false,
            lines: vec![
                Line::ours("latency", line(), 0),
                Line::ours("overhead", line(), 1).dotted(),
                Line::seed("paper", line(), 0),
            ],
        };
        let svg = render(&plot);
        // Each style once on the plot and once in the legend.
        assert_eq!(svg.matches("stroke-dasharray=\"2 3\"").count(), 2);
        assert_eq!(svg.matches("stroke-dasharray=\"5 3\"").count(), 2);
        assert_eq!(svg.matches("stroke-dasharray").count(), 4);
        // The second colour's dots fall in the first's gaps.
        assert_eq!(svg.matches("stroke-dashoffset=\"2.5\"").count(), 2);
    }

    #[test]
    fn bars_draw_seed_values_as_outlines() {
        let plot = Plot::Bars {
            title: "b".into(),
            y_label: "y".into(),
            groups: vec!["g1".into(), "g2".into()],
            bars: vec![
                ("ours".into(), vec![1.0, 2.0], false),
                ("seed".into(), vec![1.5, f64::NAN], true),
            ],
        };
        let svg = render(&plot);
        assert_eq!(svg.matches("<rect x=").count(), 3);
        assert_eq!(svg.matches("fill=\"none\" stroke=").count(), 1);
    }
}
