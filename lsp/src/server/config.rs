//! The server's settings, from `initializationOptions` and `workspace/didChangeConfiguration`.
//!
//! Both accept the same object, either bare or under an `hsir` key:
//!
//! ```json
//! { "diagnostics": { "severity": { "HS1107": "off", "HS2021": "error" } },
//!   "rtl": { "outputDir": "rtl", "hdl": "verilog" },
//!   "buffers": { "algorithm": "fpga20", "period": 4.0, "timeLimit": 30.0 } }
//! ```
//!
//! A setting that cannot be read is named in a message to the user and keeps its previous
//! value; the others still apply.

use hsir_analysis::{Config, DiagnosticCode, Severity};
use serde_json::Value;

/// Where "Generate RTL" writes.
#[derive(Debug, Clone, PartialEq)]
pub struct RtlSettings {
    /// The output folder, relative to the workspace folder unless absolute.
    pub output_dir: String,
    /// The HDL to emit.
    pub hdl: String,
}

impl Default for RtlSettings {
    fn default() -> RtlSettings {
        RtlSettings { output_dir: "rtl".to_string(), hdl: "verilog".to_string() }
    }
}

/// How "Place buffers" places buffers when the command does not say.
#[derive(Debug, Clone, PartialEq)]
pub struct BufferSettings {
    /// `fpga20` or `fpl22`.
    pub algorithm: String,
    /// Target clock period in nanoseconds.
    pub period: f64,
    /// Seconds the placement of one function may take (its MILPs share them; one cut off keeps
    /// its best placement so far).
    pub time_limit: f64,
}

impl Default for BufferSettings {
    fn default() -> BufferSettings {
        BufferSettings {
            algorithm: "fpga20".to_string(),
            period: 4.0,
            time_limit: hsir_backend::buffers::DEFAULT_TIME_LIMIT_SECS as f64,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settings {
    /// Per-code severity overrides; `None` turns a code off.
    pub severity: Vec<(DiagnosticCode, Option<Severity>)>,
    pub rtl: RtlSettings,
    pub buffers: BufferSettings,
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
        if let Some(buffers) = value.get("buffers") {
            read_buffers(buffers, &mut settings.buffers, &mut problems);
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
}

fn read_buffers(value: &Value, buffers: &mut BufferSettings, problems: &mut Vec<String>) {
    if let Some(v) = value.get("algorithm") {
        match v.as_str() {
            Some(s @ ("fpga20" | "fpl22")) => buffers.algorithm = s.to_string(),
            _ => problems
                .push(format!("hsir.buffers.algorithm: `{v}` is not one of `fpga20`, `fpl22`")),
        }
    }
    let mut positive = |key: &str, unit: &str, most: f64, slot: &mut f64| {
        let Some(v) = value.get(key) else { return };
        match v.as_f64() {
            Some(x) if x > 0.0 && x <= most => *slot = x,
            _ => problems.push(format!(
                "hsir.buffers.{key} must be a positive number of {unit}{}, not `{v}`",
                if most.is_finite() { format!(", at most {most}") } else { String::new() }
            )),
        }
    };
    positive("period", "nanoseconds", f64::MAX, &mut buffers.period);
    let most = hsir_backend::buffers::MAX_TIME_LIMIT_SECS;
    positive("timeLimit", "seconds", most, &mut buffers.time_limit);
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
                "rtl": { "outputDir": "out" },
                "buffers": { "period": -1, "algorithm": "magic", "timeLimit": 30 }
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
        assert_eq!(settings.buffers.period, 4.0);
        assert_eq!(settings.buffers.algorithm, "fpga20");
        assert_eq!(settings.buffers.time_limit, 30.0);
        let problems = problems.join("\n");
        for needle in ["HS9999", "`\"loud\"`", "buffers.period", "`\"magic\"`"] {
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
