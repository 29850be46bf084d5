use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Tracked {
    counter: Arc<AtomicUsize>,
    payload: Vec<u64>,
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.counter.fetch_add(1, Ordering::SeqCst);
    }
}

impl Clone for Tracked {
    fn clone(&self) -> Self {
        Self {
            counter: self.counter.clone(),
            payload: self.payload.clone(),
        }
    }
}

burn_std::obfuscate! {
    /// Holds a `Tracked` without naming it in its type.
    pub struct Opaque(Tracked); size = 64, align = 16, clone
}

burn_std::obfuscate! {
    struct Small(u8); size = 1, align = 1
}

#[repr(align(32))]
struct Wide([u8; 32]);

burn_std::obfuscate! {
    struct WideBox(Wide); size = 32, align = 32
}

fn tracked(counter: &Arc<AtomicUsize>) -> Tracked {
    Tracked {
        counter: counter.clone(),
        payload: vec![1, 2, 3],
    }
}

#[test]
fn drop_runs_exactly_once() {
    let drops = Arc::new(AtomicUsize::new(0));
    {
        let opaque = Opaque::new(tracked(&drops));
        assert_eq!(opaque.get().payload, vec![1, 2, 3]);
        assert_eq!(drops.load(Ordering::SeqCst), 0);
        // Moving the wrapper must not drop the value.
        let moved = opaque;
        let boxed = Box::new(moved);
        assert_eq!(boxed.get().payload.len(), 3);
    }
    assert_eq!(drops.load(Ordering::SeqCst), 1);
    // The only other strong reference went with the dropped value.
    assert_eq!(Arc::strong_count(&drops), 1);
}

#[test]
fn into_inner_moves_out_without_drop() {
    let drops = Arc::new(AtomicUsize::new(0));
    let opaque = Opaque::new(tracked(&drops));
    let inner = opaque.into_inner();
    assert_eq!(drops.load(Ordering::SeqCst), 0);
    assert_eq!(inner.payload, vec![1, 2, 3]);
    drop(inner);
    assert_eq!(drops.load(Ordering::SeqCst), 1);
    assert_eq!(Arc::strong_count(&drops), 1);
}

#[test]
fn clone_and_get_mut_are_independent() {
    let drops = Arc::new(AtomicUsize::new(0));
    let mut a = Opaque::new(tracked(&drops));
    let b = a.clone();
    a.get_mut().payload.push(4);
    assert_eq!(a.get().payload, vec![1, 2, 3, 4]);
    assert_eq!(b.get().payload, vec![1, 2, 3]);
    assert_eq!(Arc::strong_count(&drops), 3);
    drop(a);
    drop(b);
    assert_eq!(drops.load(Ordering::SeqCst), 2);
    assert_eq!(Arc::strong_count(&drops), 1);
}

#[test]
fn layout_and_auto_traits() {
    assert_eq!(std::mem::size_of::<Opaque>(), 64);
    assert_eq!(std::mem::align_of::<Opaque>(), 16);
    assert_eq!(std::mem::size_of::<Small>(), 1);
    let small = Small::new(7);
    assert_eq!(*small.get(), 7);
    let wide = WideBox::new(Wide([5; 32]));
    assert_eq!(wide.get() as *const Wide as usize % 32, 0);
    assert_eq!(wide.into_inner().0[31], 5);

    fn send_sync<T: Send + Sync>() {}
    send_sync::<Opaque>();
}
