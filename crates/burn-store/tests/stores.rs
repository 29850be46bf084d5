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

/// A net saved to `net.safetensors` in a scratch directory of `test`: the
/// file's path, the device and the net.
fn saved_net(test: &str) -> (std::path::PathBuf, Device, Net) {
    let path = scratch(test).join("net.safetensors");
    let device = Device::flex();
    let source = net(&device);
    source
        .save_into(&mut SafetensorsStore::from_file(&path))
        .unwrap();
    (path, device, source)
}

#[test]
fn safetensors_files_round_trip_and_refuse_to_overwrite_when_asked() {
    let (path, device, source) = saved_net("safetensors-files");
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

#[test]
fn loads_into_resident_parameters_leave_clones_the_user_holds_alone() {
    let dir = scratch("resident-parameters");
    let device = Device::flex();
    let source = net(&device);
    let paths = [dir.join("net.safetensors"), dir.join("net.bpk")];
    source
        .save_into(&mut SafetensorsStore::from_file(&paths[0]))
        .unwrap();
    source
        .save_into(&mut BurnpackStore::from_file(&paths[1]))
        .unwrap();
    for (i, path) in paths.iter().enumerate() {
        // Every parameter resident (the lazy Linear ones read once), so the
        // load overwrites their buffers rather than allocating new ones.
        let mut target = net(&device);
        let _ = values(&target);
        let held = target.blocks[0].linear.weight.val();
        let before = held.to_data();
        assert_ne!(before, source.blocks[0].linear.weight.val().into_data());
        let result = if i == 0 {
            target.load_from(&mut SafetensorsStore::from_file(path))
        } else {
            target.load_from(&mut BurnpackStore::from_file(path))
        }
        .unwrap();
        assert!(result.is_complete(), "{result}");
        assert_same(&source, &target);
        // The clone shared the parameter's buffer: the load wrote elsewhere.
        held.into_data().assert_eq(&before, true);
        // A second load into the same module (its buffers now the first
        // load's) gives the same values.
        target
            .load_from(&mut SafetensorsStore::from_file(&paths[0]))
            .unwrap();
        assert_same(&source, &target);
    }
}

#[cfg(unix)]
#[test]
fn a_file_that_shrinks_under_a_load_in_place_is_an_error_naming_the_tensor() {
    let (path, device, _) = saved_net("shrinking-file");
    let mut target = net(&device);
    let _ = values(&target);
    let mut store = SafetensorsStore::from_file(&path);
    // The file is open and its header parsed; then it loses its data.
    let header = store.keys().unwrap().len();
    assert_eq!(header, 9);
    let len = std::fs::metadata(&path).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(len - 40)
        .unwrap();
    let err = store.apply_to(&mut target).unwrap_err().to_string();
    assert!(err.contains("partly overwritten"), "{err}");
    assert!(err.contains("`scale`"), "{err}");
    assert!(err.contains("net.safetensors"), "{err}");
}

#[derive(Module, Debug)]
struct Weight {
    w: Param<Tensor<2>>,
}

#[test]
fn a_resident_parameter_is_loaded_into_its_own_buffer() {
    let dir = scratch("own-buffer");
    let device = Device::flex();
    let values: Vec<f32> = (0..96 * 40).map(|v| v as f32 * 0.25).collect();
    let source = Weight {
        w: Param::from_tensor(Tensor::from_data(
            TensorData::new(values.clone(), [96, 40]),
            &device,
        )),
    };
    let path = dir.join("w.safetensors");
    source
        .save_into(&mut SafetensorsStore::from_file(&path))
        .unwrap();
    // Flex takes data as it is and hands an unshared buffer back: the
    // address of the parameter's buffer is observable from outside.
    let data = TensorData::new(vec![0f32; 96 * 40], [96, 40]);
    let address = data.bytes.as_ptr();
    let mut target = Weight {
        w: Param::from_tensor(Tensor::from_data(data, &device)),
    };
    let result = target
        .load_from(&mut SafetensorsStore::from_file(&path))
        .unwrap();
    assert!(result.is_complete(), "{result}");
    let data = target.w.into_value().into_data();
    assert_eq!(data.bytes.as_ptr(), address, "the load allocated anew");
    assert_eq!(data.to_vec::<f32>().unwrap(), values);
}
