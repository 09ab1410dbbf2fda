/** The part of autocannon's API the benches use (the package ships no types). */
declare module "autocannon" {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
  }
  interface Options {
    /** Several: the connections are dealt over them. */
    url: string | string[];
    connections?: number;
    duration?: number;
    /** Requests to send in all (instead of a duration). */
    amount?: number;
    headers?: Record<string, string>;
    overallRate?: number;
    requests?: Array<Record<string, unknown>>;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
