//! Reads `data/iris.csv` into an `InMemDataset`, prints a few rows, then
//! builds the usual pipeline on top: a mapper that turns rows into
//! numeric features and a class index, a seeded train/validation split,
//! and per-class counts of each part.

use burn::data::dataset::transform::{MapperDataset, train_valid_split};
use burn::data::dataset::{Dataset, InMemDataset, csv};
use serde::Deserialize;

/// One CSV row; serde matches the fields to the header by name.
#[derive(Clone, Debug, Deserialize)]
struct IrisRow {
    sepal_length: f32,
    sepal_width: f32,
    petal_length: f32,
    petal_width: f32,
    species: String,
}

/// What a model would consume: four features and a class index.
#[derive(Clone, Debug)]
struct IrisItem {
    features: [f32; 4],
    label: usize,
}

const SPECIES: [&str; 3] = ["setosa", "versicolor", "virginica"];

fn to_item(row: &IrisRow) -> IrisItem {
    let label = SPECIES
        .iter()
        .position(|&s| s == row.species)
        .unwrap_or_else(|| panic!("unknown species {:?}", row.species));
    IrisItem {
        features: [
            row.sepal_length,
            row.sepal_width,
            row.petal_length,
            row.petal_width,
        ],
        label,
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/iris.csv");
    let rows: InMemDataset<IrisRow> = InMemDataset::from_csv(path, &csv::ReaderBuilder::new())?;
    println!("{} rows read from {path}", rows.len());
    // `get` and `iter` give `Result`s: a dataset may fail to produce an item.
    for row in rows.iter().step_by(50) {
        println!("  {:?}", row?);
    }

    let items = MapperDataset::new(rows, to_item);
    let petal_lengths = items
        .iter()
        .map(|item| item.map(|item| item.features[2]))
        .collect::<Result<Vec<f32>, _>>()?;
    let mean_petal_length = petal_lengths.iter().sum::<f32>() / items.len() as f32;
    println!("mean petal length: {mean_petal_length:.2} cm");

    // The same seed gives the same split on every run and machine.
    let (train, valid) = train_valid_split(items, 0.2, 42);
    for (name, part) in [("train", &train), ("valid", &valid)] {
        let mut counts = [0usize; 3];
        for item in part.iter() {
            counts[item?.label] += 1;
        }
        println!("{name}: {} items, per species {counts:?}", part.len());
    }
    let first = valid.get(0)?;
    println!(
        "first validation item: {first:?} ({})",
        SPECIES[first.label]
    );
    Ok(())
}
