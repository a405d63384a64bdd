//! The server's settings, from `initializationOptions` and `workspace/didChangeConfiguration`.
//!
//! Both accept the same object, either bare or under an `hsir` key:
//!
//! ```json
//! { "diagnostics": { "severity": { "HS1107": "off", "HS2021": "error" } },
//!   "rtl": { "outputDir": "rtl", "hdl": "verilog", "bufferAlgorithm": "fpga20", "clockPeriod": 4.0 } }
//! ```
//!
//! A setting that cannot be read is named in a message to the user and keeps its previous
//! value; the others still apply.

use hsir_analysis::{Config, DiagnosticCode, Severity};
use serde_json::Value;

/// The backend's settings: where "Generate RTL" writes and how buffers are placed.
#[derive(Debug, Clone, PartialEq)]
pub struct RtlSettings {
    /// The output folder, relative to the workspace folder unless absolute.
    pub output_dir: String,
    /// The HDL to emit.
    pub hdl: String,
    /// `fpga20`, `fpl22` or `none`.
    pub buffer_algorithm: String,
    /// Target clock period in nanoseconds.
    pub clock_period: f64,
}

impl Default for RtlSettings {
    fn default() -> RtlSettings {
        RtlSettings {
            output_dir: "rtl".to_string(),
            hdl: "verilog".to_string(),
            buffer_algorithm: "fpga20".to_string(),
            clock_period: 4.0,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settings {
    /// Per-code severity overrides; `None` turns a code off.
    pub severity: Vec<(DiagnosticCode, Option<Severity>)>,
    pub rtl: RtlSettings,
}

impl Settings {
    pub fn analysis_config(&self) -> Config {
        let mut config = Config::default();
        config.severity.extend(self.severity.iter().copied());
        config
    }

    /// The settings `value` describes, starting from `self`, and the problems found in it.
    pub fn updated(&self, value: &Value) -> (Settings, Vec<String>) {
        let mut settings = self.clone();
        let mut problems = Vec::new();
        let value = value.get("hsir").unwrap_or(value);
        if value.is_null() {
            return (settings, problems);
        }
        if !value.is_object() {
            problems.push(format!("hsir settings must be an object, not `{value}`"));
            return (settings, problems);
        }
        if let Some(severity) = value.pointer("/diagnostics/severity") {
            match severity.as_object() {
                Some(map) => {
                    let mut overrides = Vec::new();
                    for (code, level) in map {
                        let Some(code_id) = DiagnosticCode::from_code(code) else {
                            problems.push(format!(
                                "hsir.diagnostics.severity: `{code}` is not a diagnostic code"
                            ));
                            continue;
                        };
                        match level.as_str().and_then(Severity::parse_level) {
                            Some(level) => overrides.push((code_id, level)),
                            None => problems.push(format!(
                                "hsir.diagnostics.severity.{code}: `{level}` is not a level; use error, warning, information, hint or off"
                            )),
                        }
                    }
                    settings.severity = overrides;
                }
                None => problems.push(format!(
                    "hsir.diagnostics.severity must map codes to levels, not `{severity}`"
                )),
            }
        }
        if let Some(rtl) = value.get("rtl") {
            read_rtl(rtl, &mut settings.rtl, &mut problems);
        }
        (settings, problems)
    }
}

fn read_rtl(value: &Value, rtl: &mut RtlSettings, problems: &mut Vec<String>) {
    let mut string = |key: &str, allowed: &[&str], slot: &mut String| {
        let Some(v) = value.get(key) else { return };
        match v.as_str() {
            Some(s) if allowed.is_empty() && !s.trim().is_empty() => *slot = s.to_string(),
            Some(s) if allowed.contains(&s) => *slot = s.to_string(),
            _ if allowed.is_empty() => {
                problems.push(format!("hsir.rtl.{key} must be a non-empty string, not `{v}`"))
            }
            _ => problems.push(format!(
                "hsir.rtl.{key}: `{v}` is not one of {}",
                allowed.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ")
            )),
        }
    };
    string("outputDir", &[], &mut rtl.output_dir);
    string("hdl", &["verilog"], &mut rtl.hdl);
    string("bufferAlgorithm", &["fpga20", "fpl22", "none"], &mut rtl.buffer_algorithm);
    if let Some(v) = value.get("clockPeriod") {
        match v.as_f64() {
            Some(p) if p > 0.0 && p.is_finite() => rtl.clock_period = p,
            _ => problems.push(format!(
                "hsir.rtl.clockPeriod must be a positive number of nanoseconds, not `{v}`"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn good_settings_apply_and_bad_ones_are_named_and_ignored() {
        let (settings, problems) = Settings::default().updated(&json!({
            "hsir": {
                "diagnostics": { "severity": { "HS1107": "off", "HS2021": "error", "HS9999": "off", "HS1108": "loud" } },
                "rtl": { "outputDir": "out", "clockPeriod": -1, "bufferAlgorithm": "magic" }
            }
        }));
        assert_eq!(
            settings.severity,
            vec![
                (DiagnosticCode::from_code("HS1107").unwrap(), None),
                (DiagnosticCode::from_code("HS2021").unwrap(), Some(Severity::Error)),
            ]
        );
        assert_eq!(settings.rtl.output_dir, "out");
        assert_eq!(settings.rtl.clock_period, 4.0);
        assert_eq!(settings.rtl.buffer_algorithm, "fpga20");
        let problems = problems.join("\n");
        for needle in ["HS9999", "`\"loud\"`", "clockPeriod", "`\"magic\"`"] {
            assert!(problems.contains(needle), "{needle} not named in:\n{problems}");
        }
    }

    #[test]
    fn a_non_object_is_a_problem_not_a_reset() {
        let base = Settings::default().updated(&json!({"rtl": {"outputDir": "x"}})).0;
        let (settings, problems) = base.updated(&json!(42));
        assert_eq!(settings, base);
        assert_eq!(problems.len(), 1);
    }
}
