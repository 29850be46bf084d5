//! `#[derive(Config)]`: `new`, defaults, `with_*`, JSON, files, enums.

extern crate burn_core as burn;

use burn::config::{Config, ConfigError};

#[derive(Config, Debug, PartialEq)]
pub enum Activation {
    Relu,
    LeakyRelu(f64),
    Gelu { approximate: bool },
}

#[derive(Config, Debug, PartialEq)]
pub struct LayerConfig {
    pub d_input: usize,
    pub d_output: usize,
    #[config(default = true)]
    pub bias: bool,
    #[config(default = 1e-5)]
    pub epsilon: f64,
    /// A string literal is Rust code…
    #[config(default = "Activation::LeakyRelu(0.01)")]
    pub activation: Activation,
    /// …except on a `String` field.
    #[config(default = "linear")]
    pub name: String,
    #[config(default = "vec![1, 2]")]
    pub dims: Vec<u32>,
    pub dropout: Option<f64>,
    #[config(default = "Some(3)")]
    pub heads: Option<usize>,
}

#[derive(Config, Debug, PartialEq)]
pub struct ModelConfig {
    pub layers: Vec<LayerConfig>,
    #[config(default = "LayerConfig::new(4, 2)")]
    pub head: LayerConfig,
    pub r#type: String,
}

#[test]
fn new_takes_the_required_fields_and_defaults_the_rest() {
    let config = LayerConfig::new(784, 10);
    assert_eq!(config.d_input, 784);
    assert_eq!(config.d_output, 10);
    assert!(config.bias);
    assert_eq!(config.epsilon, 1e-5);
    assert_eq!(config.activation, Activation::LeakyRelu(0.01));
    assert_eq!(config.name, "linear");
    assert_eq!(config.dims, vec![1, 2]);
    assert_eq!(config.dropout, None);
    assert_eq!(config.heads, Some(3));
}

#[test]
fn with_builders_set_the_optional_fields() {
    let config = LayerConfig::new(1, 2)
        .with_bias(false)
        .with_epsilon(0.5)
        .with_activation(Activation::Gelu { approximate: true })
        .with_name("out".to_string())
        .with_dims(vec![])
        .with_dropout(Some(0.1))
        .with_heads(None);
    assert!(!config.bias);
    assert_eq!(config.epsilon, 0.5);
    assert_eq!(config.activation, Activation::Gelu { approximate: true });
    assert_eq!(config.name, "out");
    assert!(config.dims.is_empty());
    assert_eq!(config.dropout, Some(0.1));
    assert_eq!(config.heads, None);
    // Clone is generated.
    assert_eq!(config.clone(), config);
}

#[test]
fn json_round_trips_and_reads_as_plain_fields() {
    let config = ModelConfig::new(
        vec![LayerConfig::new(2, 3).with_dropout(Some(0.25))],
        "mlp".into(),
    );
    let json = config.to_json();
    assert_eq!(ModelConfig::from_json(&json).unwrap(), config);
    assert_eq!(config.to_string(), json, "Display is the JSON text");

    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["type"], "mlp", "raw identifiers lose their prefix");
    assert_eq!(value["head"]["d_input"], 4);
    assert_eq!(value["layers"][0]["dropout"], 0.25);
    assert_eq!(value["layers"][0]["heads"], 3);
    assert_eq!(value["layers"][0]["activation"]["LeakyRelu"], 0.01);
    assert_eq!(value["layers"][0]["name"], "linear");
}

#[test]
fn absent_defaulted_and_optional_fields_load_with_their_defaults() {
    let config = LayerConfig::from_json(r#"{"d_input": 3, "d_output": 4, "bias": false}"#).unwrap();
    assert_eq!(config, LayerConfig::new(3, 4).with_bias(false));
}

#[test]
fn a_missing_required_field_is_an_error_naming_it() {
    let err = LayerConfig::from_json(r#"{"d_input": 3}"#).unwrap_err();
    assert!(matches!(err, ConfigError::Json { path: None, .. }));
    assert!(err.to_string().contains("d_output"), "{err}");
}

#[test]
fn enums_serialize_each_variant() {
    for activation in [
        Activation::Relu,
        Activation::LeakyRelu(0.2),
        Activation::Gelu { approximate: false },
    ] {
        let json = activation.to_json();
        assert_eq!(Activation::from_json(&json).unwrap(), activation);
        assert_eq!(
            Activation::load_binary(json.as_bytes()).unwrap(),
            activation
        );
    }
    assert_eq!(Activation::Relu.to_json(), r#""Relu""#);
    assert_eq!(
        serde_json::to_string(&Activation::Gelu { approximate: true }).unwrap(),
        r#"{"Gelu":{"approximate":true}}"#
    );
}

#[test]
fn save_and_load_a_file() {
    let dir = std::env::temp_dir().join(format!("burn-core-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("model.json");
    let config = ModelConfig::new(vec![], "tiny".into());
    config.save(&file).unwrap();
    assert_eq!(ModelConfig::load(&file).unwrap(), config);

    std::fs::write(&file, "{ not json").unwrap();
    let err = ModelConfig::load(&file).unwrap_err();
    assert!(matches!(&err, ConfigError::Json { path: Some(p), .. } if p == &file));
    assert!(err.to_string().contains("model.json"), "{err}");

    let missing = dir.join("absent.json");
    let err = ModelConfig::load(&missing).unwrap_err();
    assert!(matches!(&err, ConfigError::Io { path, .. } if path == &missing));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_option_set_to_none_does_not_read_back_as_its_default() {
    let config = LayerConfig::new(1, 1).with_heads(None);
    assert_eq!(LayerConfig::from_json(&config.to_json()).unwrap(), config);
}
