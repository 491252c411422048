// What the explorer adds to the page's window: its test and console handle.
interface Window {
  /** The explorer's state and helpers (read by the end-to-end test). */
  nimlab: any;
}
