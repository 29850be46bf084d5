//! `#[derive(Module)]` on every supported shape: paths, traversal order,
//! container types, mapping, constants, devices, lazy parameters.

extern crate burn_core as burn;

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use burn::module::{Flag, Module, ModuleMapper, ModulePath, ModuleVisitor, Param, ParamId};
use burn::tensor::{Bool, Int, Tensor};
use common::{Block, Linear, Listing, Net, Relu, Residual, Vocabulary, device, values};

fn item(kind: &'static str, path: &str, detail: &str) -> (&'static str, String, String) {
    (kind, path.to_string(), detail.to_string())
}

#[test]
fn paths_follow_fields_indices_and_variants_in_declaration_order() {
    let expected = vec![
        item("float", "blocks.0.Dense.weight", "[2, 3]"),
        item("float", "blocks.0.Dense.bias", "[3]"),
        item("float", "blocks.1.Stacked.first.weight", "[3, 3]"),
        item("float", "blocks.1.Stacked.second.weight", "[3, 2]"),
        item("float", "blocks.1.Stacked.second.bias", "[2]"),
        item("float", "heads.0.weight", "[2, 1]"),
        item("float", "heads.0.bias", "[1]"),
        item("float", "heads.1.weight", "[2, 4]"),
        item("float", "residual.inner.0.weight", "[2, 2]"),
        item("float", "residual.inner.0.bias", "[2]"),
        item("float", "residual.inner.1.weight", "[2, 2]"),
        item("int", "counts", "[3]"),
        item("bool", "mask", "[2, 2]"),
        item("flag", "training", "enabled"),
    ];
    assert_eq!(Listing::of(&Net::new(1.0)), expected);
}

#[test]
fn num_params_counts_float_elements() {
    // Dense 2*3+3, Stacked 3*3 + 3*2+2, heads 2*1+1 + 2*4, residual 2*2+2 + 2*2;
    // the int and bool parameters are not weights.
    assert_eq!(Net::new(1.0).num_params(), 9 + 17 + 11 + 10);
    assert_eq!(Relu.num_params(), 0);
    assert_eq!(Linear::filled(4, 5, false, 0.0).num_params(), 20);
}

/// Records the `enter_module` calls: `(segment, container type)`.
#[derive(Default)]
struct Containers(Vec<(String, String)>);

impl ModuleVisitor for Containers {
    fn enter_module(&mut self, name: &str, container_type: &str) {
        self.0.push((name.to_string(), container_type.to_string()));
    }
}

#[test]
fn enter_module_names_the_container() {
    let mut containers = Containers::default();
    Net::new(1.0).visit(&mut containers);
    let seen = |name: &str, container: &str| {
        containers
            .0
            .iter()
            .any(|(n, c)| n == name && c == container)
    };
    assert!(seen("blocks", "Struct:Net"));
    assert!(seen("0", "Vec"));
    assert!(seen("Dense", "Enum:Block"));
    assert!(seen("Stacked", "Enum:Block"));
    assert!(seen("first", "Enum:Block::Stacked"));
    assert!(seen("1", "Array"));
    assert!(seen("inner", "Struct:Residual"));
    assert!(seen("0", "Struct:Pair"));
    assert!(seen("weight", "Struct:Linear"));
    // Constants are announced too (they are fields), skipped fields are not.
    assert!(seen("name", "Struct:Net"));
    assert!(!containers.0.iter().any(|(n, _)| n == "vocabulary"));
    // A unit variant adds nothing.
    assert!(!containers.0.iter().any(|(n, _)| n == "Identity"));
}

/// Doubles float parameters, negates int ones, inverts bool ones, turns
/// flags off, and records the paths it was shown.
#[derive(Default)]
struct Transform {
    path: ModulePath,
    paths: Vec<String>,
}

impl ModuleMapper for Transform {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.enter(name);
    }

    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.exit();
    }

    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        self.paths.push(self.path.to_string());
        param.map(|t| t * 2)
    }

    fn map_int<const D: usize>(&mut self, param: Param<Tensor<D, Int>>) -> Param<Tensor<D, Int>> {
        self.paths.push(self.path.to_string());
        param.map(|t| t.neg())
    }

    fn map_bool<const D: usize>(
        &mut self,
        param: Param<Tensor<D, Bool>>,
    ) -> Param<Tensor<D, Bool>> {
        self.paths.push(self.path.to_string());
        param.map(|t| t.bool_not())
    }

    fn map_flag(&mut self, param: Param<Flag>) -> Param<Flag> {
        self.paths.push(self.path.to_string());
        param.with_value(false)
    }
}

#[test]
fn map_sees_the_visitor_paths_and_keeps_ids_and_constants() {
    let net = Net::new(1.5);
    let visited: Vec<String> = Listing::of(&net).into_iter().map(|(_, p, _)| p).collect();
    let ids_before = ids(&net);

    let mut transform = Transform::default();
    let net = net.map(&mut transform);
    assert_eq!(transform.paths, visited);
    assert_eq!(ids(&net), ids_before);

    let Block::Dense(dense) = &net.blocks[0] else {
        panic!("variant changed")
    };
    assert_eq!(values(&dense.weight), vec![3.0; 6]);
    assert_eq!(values(dense.bias.as_ref().unwrap()), vec![-3.0; 3]);
    assert_eq!(
        net.counts.val().into_data().to_vec::<i64>().unwrap(),
        vec![-1, -2, -3]
    );
    assert_eq!(
        net.mask.val().into_data().to_vec::<bool>().unwrap(),
        vec![false, true, true, false]
    );
    assert!(!net.training.is_enabled());

    // Constants and skipped fields come through untouched.
    assert_eq!(net.name, "net");
    assert_eq!(net.residual.as_ref().unwrap().scale, 0.5);
    assert_eq!(*net.labels, vec!["cat", "dog"]);
    assert_eq!(net.vocabulary, Vocabulary(vec!["a".into(), "b".into()]));
    assert_eq!(
        net.table.into_data().to_vec::<f32>().unwrap(),
        vec![10.0, 20.0]
    );
    assert!(matches!(net.blocks[2], Block::Identity));
    assert!(net.absent.is_none());
}

/// Every parameter id, in traversal order.
fn ids<M: Module>(module: &M) -> Vec<ParamId> {
    struct Ids(Vec<ParamId>);
    impl ModuleVisitor for Ids {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            self.0.push(param.id);
        }
        fn visit_int<const D: usize>(&mut self, param: &Param<Tensor<D, Int>>) {
            self.0.push(param.id);
        }
        fn visit_bool<const D: usize>(&mut self, param: &Param<Tensor<D, Bool>>) {
            self.0.push(param.id);
        }
        fn visit_flag(&mut self, param: &Param<Flag>) {
            self.0.push(param.id);
        }
    }
    let mut ids = Ids(Vec::new());
    module.visit(&mut ids);
    ids.0
}

#[test]
fn param_ids_are_distinct_and_clones_keep_them() {
    let net = Net::new(1.0);
    let mut all = ids(&net);
    assert_eq!(all.len(), 14);
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 14, "every parameter has its own id");

    let clone = net.clone();
    assert_eq!(ids(&clone), ids(&net));
    assert_ne!(ids(&Net::new(1.0)), ids(&net), "a new module has new ids");
}

#[test]
fn devices_are_deduplicated_and_moves_keep_values_and_ids() {
    let net = Net::new(2.0);
    assert_eq!(net.devices(), vec![device()]);
    assert_eq!(Relu.devices(), vec![]);

    let before = ids(&net);
    let moved = net.to_device(&device());
    assert_eq!(ids(&moved), before);
    assert_eq!(values(&moved.heads[1].weight), vec![2.0; 8]);
    let forked = moved.fork(&device());
    assert_eq!(ids(&forked), before);
    assert_eq!(values(&forked.heads[0].weight), vec![2.0; 2]);
}

#[test]
fn generic_modules_take_any_module() {
    let relu = Residual {
        inner: Relu,
        scale: 2.0,
    };
    assert_eq!(relu.num_params(), 0);
    assert!(Listing::of(&relu).is_empty());

    let linear = Residual {
        inner: Linear::filled(2, 2, true, 1.0),
        scale: 2.0,
    };
    let paths: Vec<String> = Listing::of(&linear)
        .into_iter()
        .map(|(_, p, _)| p)
        .collect();
    assert_eq!(paths, ["inner.weight", "inner.bias"]);

    let nested = Residual {
        inner: Residual {
            inner: vec![Relu, Relu],
            scale: 1.0,
        },
        scale: 1.0,
    };
    assert_eq!(nested.clone().inner.inner, vec![Relu, Relu]);
}

#[test]
fn tuples_boxes_and_options_of_modules() {
    #[derive(Module, Debug)]
    struct Holder {
        tuple: (Linear, Option<Linear>),
        boxed: Box<Linear>,
        maybe: Option<Vec<Linear>>,
    }
    let holder = Holder {
        tuple: (Linear::filled(1, 1, false, 1.0), None),
        boxed: Box::new(Linear::filled(1, 2, false, 1.0)),
        maybe: Some(vec![Linear::filled(2, 1, true, 1.0)]),
    };
    let paths: Vec<String> = Listing::of(&holder)
        .into_iter()
        .map(|(_, p, _)| p)
        .collect();
    assert_eq!(
        paths,
        [
            "tuple.0.weight",
            "boxed.weight",
            "maybe.0.weight",
            "maybe.0.bias"
        ]
    );
    assert_eq!(holder.num_params(), 1 + 2 + 3);
}

#[test]
fn raw_identifiers_and_unused_names_of_generated_code_are_fields_like_any_other() {
    // Field names that clash with the generated methods' parameters.
    #[derive(Module, Debug)]
    struct Clashing {
        device: Linear,
        visitor: Linear,
        r#type: Linear,
    }
    let module = Clashing {
        device: Linear::filled(1, 1, false, 1.0),
        visitor: Linear::filled(1, 1, false, 2.0),
        r#type: Linear::filled(1, 1, false, 3.0),
    };
    let paths: Vec<String> = Listing::of(&module)
        .into_iter()
        .map(|(_, p, _)| p)
        .collect();
    assert_eq!(paths, ["device.weight", "visitor.weight", "type.weight"]);
    let moved = module.to_device(&device());
    assert_eq!(values(&moved.r#type.weight), vec![3.0]);
}

/// A lazy `[rows, cols]` parameter of ones whose initializer counts its runs.
fn lazy_param(rows: usize, cols: usize, runs: &Arc<AtomicUsize>) -> Param<Tensor<2>> {
    let runs = runs.clone();
    Param::uninitialized(
        ParamId::new(),
        move |device, _require_grad| {
            runs.fetch_add(1, Ordering::SeqCst);
            Tensor::ones([rows, cols], device)
        },
        device(),
        true,
        [rows, cols],
    )
}

#[test]
fn lazy_parameters_initialize_once_on_first_read() {
    let runs = Arc::new(AtomicUsize::new(0));
    let linear = Linear {
        weight: lazy_param(3, 4, &runs),
        bias: None,
    };

    // Counting, listing devices and moving need no value.
    assert_eq!(linear.num_params(), 12);
    assert_eq!(linear.devices(), vec![device()]);
    assert_eq!(Listing::of(&linear)[0].2, "[3, 4]");
    let linear = linear.to_device(&device());
    assert!(!linear.weight.is_initialized());
    assert_eq!(runs.load(Ordering::SeqCst), 0);

    // A clone shares the pending value: one run, the same tensor for both.
    let clone = linear.clone();
    assert_eq!(values(&clone.weight), vec![1.0; 12]);
    assert!(linear.weight.is_initialized());
    assert_eq!(values(&linear.weight), vec![1.0; 12]);
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    assert_eq!(clone.weight.id, linear.weight.id);
}

#[test]
fn moving_a_shared_lazy_parameter_initializes_it_so_clones_agree() {
    let runs = Arc::new(AtomicUsize::new(0));
    let param = lazy_param(2, 2, &runs);
    let clone = param.clone();
    let moved = param.to_device(&device());
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    assert!(clone.is_initialized());
    assert_eq!(values(&moved), values(&clone));
}

#[test]
fn debug_shows_lazy_parameters_without_initializing_them() {
    let runs = Arc::new(AtomicUsize::new(0));
    let param = lazy_param(2, 5, &runs);
    let text = format!("{param:?}");
    assert!(text.contains("uninitialized, shape [2, 5]"), "{text}");
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[test]
fn flags_keep_their_id_and_configuration() {
    let flag = Param::<Flag>::from_bool(true);
    assert!(flag.is_enabled());
    assert!(flag.is_configured_enabled());
    let id = flag.id;
    let off = flag.with_value(false);
    assert_eq!(off.id, id);
    assert!(!off.is_enabled());
    assert!(!off.is_configured_enabled());
    assert_eq!(off.val().to_string(), "disabled");
}

#[test]
fn const_generics_where_clauses_and_skipped_variant_fields() {
    #[derive(Module, Debug)]
    struct Stack<const N: usize, M>
    where
        M: Module,
    {
        layers: [M; N],
    }

    #[derive(Clone, Debug)]
    struct Note(&'static str);

    #[derive(Module, Debug)]
    enum Tagged {
        Layer(Linear, #[module(skip)] Note),
    }

    let stack = Stack::<3, Tagged> {
        layers: [0.0, 1.0, 2.0].map(|v| Tagged::Layer(Linear::filled(1, 2, false, v), Note("x"))),
    };
    let paths: Vec<String> = Listing::of(&stack).into_iter().map(|(_, p, _)| p).collect();
    // Two fields in the variant: each under the variant, by index.
    assert_eq!(
        paths,
        [
            "layers.0.Layer.0.weight",
            "layers.1.Layer.0.weight",
            "layers.2.Layer.0.weight"
        ]
    );
    let moved = stack.to_device(&device());
    let Tagged::Layer(linear, note) = &moved.layers[2];
    assert_eq!(values(&linear.weight), vec![2.0, 2.0]);
    assert_eq!(note.0, "x");
}
