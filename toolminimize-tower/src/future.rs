//! [`ResponseFuture`]: the inner service's future, or the error of a call that was not sent.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use pin_project_lite::pin_project;

use crate::error::{BoxError, Error};

pin_project! {
    /// The response future of [`Minimize`](crate::Minimize).
    #[derive(Debug)]
    pub struct ResponseFuture<F> {
        #[pin]
        state: State<F>,
    }
}

pin_project! {
    #[project = StateProj]
    #[derive(Debug)]
    enum State<F> {
        Called {
            #[pin]
            future: F,
        },
        Rejected {
            error: Option<Error>,
        },
    }
}

impl<F> ResponseFuture<F> {
    pub(crate) fn called(future: F) -> Self {
        ResponseFuture {
            state: State::Called { future },
        }
    }

    pub(crate) fn rejected(error: Error) -> Self {
        ResponseFuture {
            state: State::Rejected { error: Some(error) },
        }
    }
}

impl<F, T, E> Future for ResponseFuture<F>
where
    F: Future<Output = Result<T, E>>,
    E: Into<BoxError>,
{
    type Output = Result<T, Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project().state.project() {
            StateProj::Called { future } => future.poll(cx).map_err(Error::inner),
            StateProj::Rejected { error } => Poll::Ready(Err(error
                .take()
                .unwrap_or_else(|| Error::inner("response future polled after completion")))),
        }
    }
}
