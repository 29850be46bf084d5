//! Round trips through each store's files, and the options every store
//! shares: filters, remapping, adapters, strictness.

mod common;

use burn::module::{Module, Param};
use burn_core as burn;
use burn_std::DType;
use burn_store::{
    BurnpackStore, FloatCastAdapter, HalfPrecisionAdapter, ModuleAdapter, ModuleDTypeAdapter,
    ModuleSnapshot, ModuleStore, PathFilter, SafetensorsStore,
};
use burn_tensor::{Bool, Device, Int, Tensor, TensorData};
use common::scratch;

#[derive(Module, Debug)]
struct Block {
    linear: burn_nn::Linear,
    steps: Param<Tensor<1, Int>>,
    mask: Param<Tensor<2, Bool>>,
}

#[derive(Module, Debug)]
struct Net {
    blocks: Vec<Block>,
    scale: Param<Tensor<1>>,
}

fn net(device: &Device) -> Net {
    let block = |seed: i64| Block {
        linear: burn_nn::LinearConfig::new(3, 2).init(device),
        steps: Param::from_tensor(Tensor::from_data([seed, seed + 1], device)),
        mask: Param::from_tensor(Tensor::from_data([[true, false], [false, true]], device)),
    };
    Net {
        blocks: vec![block(1), block(10)],
        scale: Param::from_tensor(Tensor::from_data([0.5f32], device)),
    }
}

fn values(net: &Net) -> Vec<TensorData> {
    let mut out = vec![net.scale.val().into_data()];
    for b in &net.blocks {
        out.push(b.linear.weight.val().into_data());
        out.push(b.linear.bias.as_ref().unwrap().val().into_data());
        out.push(b.steps.val().into_data());
        out.push(b.mask.val().into_data());
    }
    out
}

fn assert_same(a: &Net, b: &Net) {
    for (x, y) in values(a).iter().zip(values(b)) {
        x.assert_eq(&y, false);
    }
}

#[test]
fn burnpack_files_keep_values_ids_and_kinds() {
    let dir = scratch("burnpack-files");
    let device = Device::flex();
    let source = net(&device);
    source
        .save_into(&mut BurnpackStore::from_file(dir.join("net")))
        .unwrap();
    assert!(dir.join("net.bpk").exists());
    let mut target = net(&device);
    let result = target
        .load_from(&mut BurnpackStore::from_file(dir.join("net")))
        .unwrap();
    assert!(result.is_complete(), "{result}");
    assert_same(&source, &target);
    assert_eq!(
        target.blocks[1].linear.weight.id,
        source.blocks[1].linear.weight.id
    );
    // The file is a ModuleRecord's format too.
    let record = burn_core::record::ModuleRecord::load(dir.join("net")).unwrap();
    assert_eq!(record.entries()[0].path, "blocks.0.linear.weight");
}

#[test]
fn safetensors_files_round_trip_and_refuse_to_overwrite_when_asked() {
    let dir = scratch("safetensors-files");
    let path = dir.join("net.safetensors");
    let device = Device::flex();
    let source = net(&device);
    source
        .save_into(&mut SafetensorsStore::from_file(&path))
        .unwrap();
    let mut target = net(&device);
    target
        .load_from(&mut SafetensorsStore::from_file(&path))
        .unwrap();
    assert_same(&source, &target);
    let err = source
        .save_into(&mut SafetensorsStore::from_file(&path).overwrite(false))
        .unwrap_err();
    assert!(err.to_string().contains("net.safetensors"), "{err}");
}

#[test]
fn filters_remapping_and_strictness() {
    let device = Device::flex();
    let source = net(&device);
    let mut store = SafetensorsStore::from_bytes(None)
        .with_glob("blocks.1.**")
        .with_key_remapping(r"^blocks\.1\.", "layer.");
    source.save_into(&mut store).unwrap();
    let bytes = store.get_bytes().unwrap();
    let mut keys = SafetensorsStore::from_bytes(Some(bytes.clone()))
        .keys()
        .unwrap();
    keys.sort();
    assert_eq!(
        keys,
        [
            "layer.linear.bias",
            "layer.linear.weight",
            "layer.mask",
            "layer.steps"
        ]
    );

    // Back under the module's names (the mask left under its file name),
    // into block 1 only, masks excluded.
    let load = || {
        SafetensorsStore::from_bytes(Some(bytes.clone()))
            .with_key_remapping(r"^layer\.(linear|steps)", "blocks.1.$1")
            .filter(
                PathFilter::new()
                    .with_regex(r"^blocks\.1\.")
                    .without_glob("*.*.mask"),
            )
    };
    let mut target = net(&device);
    let result = target.load_from(&mut load()).unwrap();
    assert_eq!(
        result.applied,
        [
            "blocks.1.linear.weight",
            "blocks.1.linear.bias",
            "blocks.1.steps"
        ]
    );
    assert_eq!(result.unused, ["layer.mask"]);
    assert!(result.skipped.contains(&"blocks.0.steps".to_string()));
    assert!(result.skipped.contains(&"blocks.1.mask".to_string()));
    assert!(result.missing.is_empty());
    target.blocks[1]
        .steps
        .val()
        .into_data()
        .assert_eq(&source.blocks[1].steps.val().into_data(), true);
    // Strict: the unused tensor fails the load, and the message names it.
    let err = net(&device)
        .load_from(&mut load().strict(true))
        .unwrap_err();
    assert!(err.to_string().contains("unused: `layer.mask`"), "{err}");
    // Without the filter, block 0 is missing.
    let err = net(&device)
        .load_from(&mut SafetensorsStore::from_bytes(Some(bytes.clone())))
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("missing: `blocks.0.linear.weight`"),
        "{err}"
    );
}

#[test]
fn dtype_adapters() {
    let device = Device::flex();
    let source = net(&device);
    // Half precision on save: Linear weights become f16, the rest stays.
    let mut store = SafetensorsStore::from_bytes(None).with_to_adapter(HalfPrecisionAdapter::new());
    source.save_into(&mut store).unwrap();
    let bytes = store.get_bytes().unwrap();
    let mut saved = SafetensorsStore::from_bytes(Some(bytes.clone()));
    assert_eq!(
        saved
            .get_tensor("blocks.0.linear.weight")
            .unwrap()
            .unwrap()
            .dtype(),
        DType::F16
    );
    assert_eq!(
        saved.get_tensor("scale").unwrap().unwrap().dtype(),
        DType::F32
    );

    // Loaded as is, the weights are f16 parameters; with the adapter, f32.
    let mut target = net(&device);
    target
        .load_from(&mut SafetensorsStore::from_bytes(Some(bytes.clone())))
        .unwrap();
    assert_eq!(target.blocks[0].linear.weight.dtype(), DType::F16);
    let mut target = net(&device);
    target
        .load_from(
            &mut SafetensorsStore::from_bytes(Some(bytes.clone()))
                .with_from_adapter(HalfPrecisionAdapter::new()),
        )
        .unwrap();
    assert_eq!(target.blocks[0].linear.weight.dtype(), DType::F32);
    let mut target = net(&device);
    target
        .load_from(
            &mut SafetensorsStore::from_bytes(Some(bytes.clone()))
                .with_from_adapter(ModuleDTypeAdapter),
        )
        .unwrap();
    assert_eq!(target.blocks[1].linear.weight.dtype(), DType::F32);
    let want = source.blocks[1]
        .linear
        .weight
        .val()
        .into_data()
        .convert_dtype(DType::F16)
        .convert_dtype(DType::F32);
    target.blocks[1]
        .linear
        .weight
        .val()
        .into_data()
        .assert_eq(&want, true);

    // A cast of every float tensor, chained after another adapter.
    let adapter = HalfPrecisionAdapter::new().chain(FloatCastAdapter::to(DType::F64));
    let mut target = net(&device);
    target
        .load_from(&mut SafetensorsStore::from_bytes(Some(bytes)).with_from_adapter(adapter))
        .unwrap();
    assert_eq!(target.scale.dtype(), DType::F64);
    assert_eq!(target.blocks[0].linear.weight.dtype(), DType::F64);
    assert_eq!(
        target.blocks[0].steps.val().dtype(),
        source.blocks[0].steps.val().dtype()
    );
}
