//! The inner service of the gateway: POSTs a call to the upstream tool server.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::Bytes;
use axum::http::{HeaderValue, Request, StatusCode, Uri, header};
use http_body_util::{BodyExt, Full, Limited};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use toolminimize_core::Report;
use tower_service::Service;

use super::wire::GatewayCall;
use crate::error::BoxError;

/// What the upstream answered, and the call's report.
#[derive(Debug)]
pub(crate) struct UpstreamResponse {
    pub(crate) status: StatusCode,
    pub(crate) content_type: Option<HeaderValue>,
    pub(crate) body: Bytes,
    pub(crate) report: Option<Report>,
}

/// Sends each call to one upstream URL over HTTP/1.1.
#[derive(Clone, Debug)]
pub(crate) struct Upstream {
    client: Client<HttpConnector, Full<Bytes>>,
    uri: Uri,
    max_response_bytes: usize,
}

impl Upstream {
    pub(crate) fn new(uri: Uri, max_response_bytes: usize) -> Self {
        Upstream {
            client: Client::builder(TokioExecutor::new()).build_http(),
            uri,
            max_response_bytes,
        }
    }
}

type BoxFuture<T> = Pin<Box<dyn Future<Output = Result<T, BoxError>> + Send>>;

impl Service<GatewayCall> for Upstream {
    type Response = UpstreamResponse;
    type Error = BoxError;
    type Future = BoxFuture<UpstreamResponse>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        // The pooled client accepts requests at any time.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut call: GatewayCall) -> Self::Future {
        let report = call.take_report();
        let request = Request::post(self.uri.clone())
            .header(header::CONTENT_TYPE, "application/json")
            .body(Full::new(Bytes::from(call.encode())));
        let client = self.client.clone();
        let limit = self.max_response_bytes;
        Box::pin(async move {
            let response = client.request(request?).await?;
            let (parts, body) = response.into_parts();
            let body = Limited::new(body, limit).collect().await?.to_bytes();
            Ok(UpstreamResponse {
                status: parts.status,
                content_type: parts.headers.get(header::CONTENT_TYPE).cloned(),
                body,
                report,
            })
        })
    }
}
